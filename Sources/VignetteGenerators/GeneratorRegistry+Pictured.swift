public import VignetteCore

extension GeneratorRegistry {
    /// The MIME types whose files some thumbnail generator pictures (the fallback's icon does not
    /// count), sorted; what the D-Bus thumbnailer's `GetSupported` answers.
    ///
    /// Every type of the catalog is asked for its candidates, so a generator for `public.image`
    /// brings every image type's MIME types, and a custom type or generator counts like a built-in one.
    public func picturedMIMETypes() -> [String] {
        let fallback = FallbackGenerator(catalog: catalog).identifier
        var found = Set<String>()
        for type in catalog.allTypes {
            let pictured = candidates(for: type, size: nil, capability: .thumbnail).contains { $0.generator.identifier != fallback }
            if pictured { found.formUnion(catalog.mimeTypes(of: type)) }
        }
        return found.sorted()
    }
}
