import ServiceLifecycle

/// Runs a service and marks the state as draining as soon as graceful shutdown starts (so `/readyz` says 503).
struct DrainingService<Base: Service>: Service {
    let base: Base
    let state: ServiceState

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await base.run()
        } onGracefulShutdown: {
            state.draining = true
        }
    }
}
