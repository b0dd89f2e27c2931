/// The names and introspection data of the thumbnail management D-Bus spec's interfaces.
enum ThumbnailerInterfaces {
    /// The thumbnailer's bus name, interface and (with slashes) object path.
    static let thumbnailer = "org.freedesktop.thumbnails.Thumbnailer1"
    /// The cache's bus name and interface.
    static let cache = "org.freedesktop.thumbnails.Cache1"
    /// Where the thumbnailer object lives.
    static let thumbnailerPath = "/org/freedesktop/thumbnails/Thumbnailer1"
    /// Where the cache object lives.
    static let cachePath = "/org/freedesktop/thumbnails/Cache1"
    /// Vignette's own interface on the thumbnailer object, for tests (only with `--start-paused`).
    static let testing = "org.vignette.Testing1"
    /// `org.freedesktop.DBus.Introspectable`
    static let introspectable = "org.freedesktop.DBus.Introspectable"

    private static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    private static let introspectableXML = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>

        """

    /// The thumbnailer object's description (`gdbus call` reads it to type its arguments).
    static func thumbnailerXML(testing: Bool) -> String {
        header + "<node>\n" + introspectableXML + """
              <interface name="org.freedesktop.thumbnails.Thumbnailer1">
                <method name="Queue">
                  <arg name="uris" type="as" direction="in"/>
                  <arg name="mime_types" type="as" direction="in"/>
                  <arg name="flavor" type="s" direction="in"/>
                  <arg name="scheduler" type="s" direction="in"/>
                  <arg name="handle_to_unqueue" type="u" direction="in"/>
                  <arg name="handle" type="u" direction="out"/>
                </method>
                <method name="Dequeue"><arg name="handle" type="u" direction="in"/></method>
                <method name="GetSupported">
                  <arg name="uri_schemes" type="as" direction="out"/>
                  <arg name="mime_types" type="as" direction="out"/>
                </method>
                <method name="GetSchedulers"><arg name="schedulers" type="as" direction="out"/></method>
                <method name="GetFlavors"><arg name="flavors" type="as" direction="out"/></method>
                <signal name="Started"><arg name="handle" type="u"/></signal>
                <signal name="Finished"><arg name="handle" type="u"/></signal>
                <signal name="Ready"><arg name="handle" type="u"/><arg name="uris" type="as"/></signal>
                <signal name="Error">
                  <arg name="handle" type="u"/>
                  <arg name="failed_uris" type="as"/>
                  <arg name="error_code" type="i"/>
                  <arg name="message" type="s"/>
                </signal>
              </interface>

            """
            + (testing ? "  <interface name=\"\(Self.testing)\"><method name=\"Resume\"/></interface>\n" : "") + "</node>\n"
    }

    /// The cache object's description.
    static let cacheXML =
        header + "<node>\n" + introspectableXML + """
              <interface name="org.freedesktop.thumbnails.Cache1">
                <method name="Move">
                  <arg name="from_uris" type="as" direction="in"/>
                  <arg name="to_uris" type="as" direction="in"/>
                </method>
                <method name="Copy">
                  <arg name="from_uris" type="as" direction="in"/>
                  <arg name="to_uris" type="as" direction="in"/>
                </method>
                <method name="Delete"><arg name="uris" type="as" direction="in"/></method>
                <method name="Cleanup">
                  <arg name="base_uris" type="as" direction="in"/>
                  <arg name="since" type="u" direction="in"/>
                </method>
              </interface>
            </node>

            """

    /// The description of a path above the objects: just its children, so tools can walk down.
    static func parentXML(of path: String) -> String? {
        let objects = [thumbnailerPath, cachePath]
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(objects.filter { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).split(separator: "/")[0] })
        guard !children.isEmpty else { return nil }
        return header + "<node>\n" + introspectableXML + children.sorted().map { "  <node name=\"\($0)\"/>\n" }.joined() + "</node>\n"
    }
}
