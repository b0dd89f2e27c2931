import Foundation
import Testing

@Suite("vignette type / types")
struct TypeCommandTests {
    let samples = CLI.packageRoot + "/Samples"

    @Test func printsIdentifierMIMEAndConformance() throws {
        let r = try CLI.run(["type", "Samples/photo.jpg"], currentDirectory: CLI.packageRoot)
        #expect(r.status == 0)
        #expect(
            r.stdout == "Samples/photo.jpg: public.jpeg (image/jpeg); conforms to public.image, public.data, public.content, public.item\n")
        #expect(r.stderr.isEmpty)
    }

    @Test func mimeModePrintsExactlyPathTabMime() throws {
        let r = try CLI.run(
            ["type", "--mime", "Samples/really-a-png.jpg", "Samples/empty.txt", "Samples/notes.txt"],
            currentDirectory: CLI.packageRoot)
        #expect(r.status == 0)
        #expect(
            r.stdout == "Samples/really-a-png.jpg\timage/png\nSamples/empty.txt\tapplication/x-zerosize\nSamples/notes.txt\ttext/plain\n")
    }

    @Test func jsonModePrintsAnArray() throws {
        let r = try CLI.run(["type", "--json", "--explain", "Samples/archive.zip"], currentDirectory: CLI.packageRoot)
        #expect(r.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        #expect(array[0]["identifier"] as? String == "public.zip-archive")
        #expect(array[0]["mime"] as? String == "application/zip")
        #expect(array[0]["path"] as? String == "Samples/archive.zip")
        #expect((array[0]["conformsTo"] as? [String])?.contains("public.archive") == true)
        #expect(array[0]["evidence"] as? String != nil)
    }

    @Test func badInputGetsOneLineEachAndTheRestIsStillAnswered() throws {
        let dir = try CLI.tempDirectory()
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let dangling = dir + "/dangling"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir + "/nowhere")
        let good = dir + "/good.txt"
        try "hello\n".write(toFile: good, atomically: true, encoding: .utf8)
        let r = try CLI.run(["type", "--mime", dir + "/missing", dir, dangling, fifo, "/dev/null", good])
        #expect(r.status == 1)
        #expect(r.stdout == "\(good)\ttext/plain\n")
        #expect(
            r.stderr == """
                vignette: \(dir)/missing: no such file or directory
                vignette: \(dir): is a directory
                vignette: \(dangling): broken symbolic link (its target does not exist)
                vignette: \(fifo): is a FIFO (named pipe), not a regular file
                vignette: /dev/null: is a character device, not a regular file

                """)
    }

    @Test func unreadableFileIsReportedAsPermissionDenied() throws {
        let dir = try CLI.tempDirectory()
        chmod(dir, 0o755)
        let secret = dir + "/secret.txt"
        try "secret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0)
        // Root reads everything, so run as the unprivileged user 65534 (nobody) when we are root.
        let user: String? = getuid() == 0 ? "65534" : nil
        let r = try CLI.run(["type", secret], user: user)
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: \(secret): permission denied\n")
    }

    @Test("an empty file name is shown quoted, as ls shows it")
    func anEmptyNameIsQuoted() throws {
        let r = try CLI.run(["type", ""])
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: '': no such file or directory\n")
    }

    @Test func usageErrorsExitTwo() throws {
        let r = try CLI.run(["type", "--mime", "--json", "x"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--mime and --json cannot be used together"))
        let none = try CLI.run(["type"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("Missing expected argument '<FILE> ...'"))
    }

    @Test("a types file or generators folder named by a variable says so when it is wrong")
    func variablesAreNamedInTheirErrors() throws {
        let dir = try CLI.tempDirectory()
        let photo = CLI.packageRoot + "/Samples/photo.jpg"
        let types = try CLI.run(["type", photo], environment: ["VIGNETTE_TYPES": dir])
        #expect(types.status == 1)
        #expect(types.stderr == "vignette: \(dir): is a directory (named in $VIGNETTE_TYPES)\n")
        // Typed on the command line as well, it is the user's own: no note.
        let typed = try CLI.run(["type", "--types", dir, photo], environment: ["VIGNETTE_TYPES": dir])
        #expect(typed.stderr == "vignette: \(dir): is a directory\n")

        let generators = try CLI.run(
            ["type", "--generators", dir + "/missing", photo], environment: ["VIGNETTE_GENERATORS": photo + ":" + dir + "/gone"])
        #expect(generators.status == 0)
        #expect(
            generators.stderr == """
                vignette: \(photo): not a folder of generator manifests (named in $VIGNETTE_GENERATORS)
                vignette: \(dir)/gone: no such folder (named in $VIGNETTE_GENERATORS)
                vignette: \(dir)/missing: no such folder

                """)
    }

    @Test func customDeclarationFileIsUsed() throws {
        let dir = try CLI.tempDirectory()
        let decl = dir + "/types.json"
        try """
        {"format": 1, "exportedTypes": [{"identifier": "com.example.palette", "conformsTo": ["public.data"],
          "description": "Example palette", "extensions": ["pal"], "mimeTypes": ["application/x-example-palette"],
          "signatures": [{"priority": 70, "patterns": [{"offset": 0, "ascii": "PALETTE1"}]}]}]}
        """.write(toFile: decl, atomically: true, encoding: .utf8)
        let misnamed = dir + "/colours.txt"
        try "PALETTE1\n#ff0000\n".write(toFile: misnamed, atomically: true, encoding: .utf8)
        let r = try CLI.run(["type", "--mime", "--types", decl, misnamed])
        #expect(r.stdout == "\(misnamed)\tapplication/x-example-palette\n")
        let viaEnv = try CLI.run(["type", "--mime", misnamed], environment: ["VIGNETTE_TYPES": decl])
        #expect(viaEnv.stdout == r.stdout)
        let bad = dir + "/bad.json"
        try #"{"exportedTypes": [{"identifier": "public.palette", "conformsTo": ["public.data"]}]}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["type", "--types", bad, misnamed])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "vignette: \(bad): type public.palette uses the reserved prefix \"public.\"; use your own reverse-DNS name such as com.example.palette\n"
        )
    }

    @Test func typesListsAtLeast150ConcreteDeclarations() throws {
        let r = try CLI.run(["types", "--json"])
        #expect(r.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let concrete = array.filter {
            !(($0["extensions"] as? [String]) ?? []).isEmpty || !(($0["mimeTypes"] as? [String]) ?? []).isEmpty
        }
        #expect(concrete.count >= 150)
        let tree = try CLI.run(["types", "--tree"])
        #expect(tree.stdout.hasPrefix("public.item\n"))
        #expect(tree.stdout.contains("\n      public.png\n") || tree.stdout.contains("public.png"))
    }

    @Test("types shows long extensions and MIME types whole (they were cut at 10 and 44 characters)")
    func typesNeverCutsACell() throws {
        let dir = try CLI.tempDirectory()
        let mime = "application/x-a-very-long-mime-type-name-that-goes-well-past-the-column"
        try """
        {"format": 1, "exportedTypes": [{"identifier": "com.example.long", "conformsTo": ["public.data"],
          "description": "Long one", "extensions": ["averyverylongext"], "mimeTypes": ["\(mime)"]}]}
        """.write(toFile: dir + "/long.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["types", "--types", dir + "/long.json"])
        #expect(r.status == 0)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("com.example.long ") })
        #expect(line.hasSuffix("  .averyverylongext  \(mime)  Long one"))
        let png = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("public.png ") })
        #expect(png.contains(" .png ") && png.contains(" image/png ") && png.hasSuffix("  PNG image"))
    }

    @Test func aMissingOrUnreadableDeclarationFileIsNamedWithTheReason() throws {
        let dir = try CLI.tempDirectory()
        let missing = try CLI.run(["type", "--types", dir + "/typo.json", "Samples/photo.jpg"], currentDirectory: CLI.packageRoot)
        #expect(missing.status == 1)
        #expect(missing.stderr == "vignette: \(dir)/typo.json: no such file or directory\n")
        let folder = try CLI.run(["type", "--types", dir, "Samples/photo.jpg"], currentDirectory: CLI.packageRoot)
        #expect(folder.status == 1)
        #expect(folder.stderr == "vignette: \(dir): is a directory\n")
    }

    @Test func helpHasExamples() throws {
        for command in [["--help"], ["type", "--help"], ["types", "--help"]] {
            let r = try CLI.run(command)
            #expect(r.status == 0)
            #expect(r.stdout.contains("Examples:"))
        }
    }

    @Test func noCommandsExampleIsWrappedInEightyColumns() throws {
        // ArgumentParser wraps help at 80 columns; an example longer than that has its tail put
        // at the start of the next line, which then no longer reads as a command.
        let commands = [
            "", "type", "types", "thumbnail", "preview", "view", "which", "generators", "batch", "cache", "cache prune", "serve", "sign",
            "healthcheck", "thumbnailer-service",
        ]
        for command in commands {
            let r = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.status == 0)
            guard let examples = r.stdout.range(of: "Examples:\n") else { continue }
            let block = r.stdout[examples.upperBound...].components(separatedBy: "\n\n")[0]
            for line in block.split(separator: "\n") {
                #expect(line.hasPrefix("  "), "vignette \(command) --help: \"\(line)\" is the tail of a wrapped example")
            }
        }
    }
}
