import Foundation
import Synchronization
import Testing
import VignetteCore

@Suite("The worker pool")
struct WorkPoolTests {
    @Test func aReservationHoldsASlotUntilUsedReleasedOrDropped() async throws {
        let pool = WorkPool(concurrency: 1, queue: 1)
        defer { pool.shutdown() }
        let first = try pool.reserve()
        var second: WorkPool.Reservation? = try pool.reserve()
        #expect(pool.inFlight == 2)
        #expect(throws: WorkPool.Refusal.overloaded) { try pool.reserve() }
        await #expect(throws: WorkPool.Refusal.overloaded) { try await pool.run(timeout: 5) { 1 } }
        // Dropped unused (the upload failed): the slot comes back.
        second = nil
        #expect(second == nil)
        #expect(pool.inFlight == 1)
        // Used: the job runs in the reserved slot, and a used reservation gives nothing back twice.
        #expect(try await pool.run(timeout: 5, in: first) { 42 } == 42)
        first.release()
        // The worker gives the slot back just after handing over the result.
        pool.waitUntilIdle()
        #expect(pool.inFlight == 0)
        let third = try pool.reserve()
        third.release()
        third.release()
        #expect(pool.inFlight == 0)
    }

    @Test func aRunningJobLearnsThatItsCallerGaveUp() async throws {
        let pool = WorkPool(concurrency: 1, queue: 0)
        defer { pool.shutdown() }
        #expect(!WorkPool.currentJobIsAbandoned)
        let noticed = Mutex(false)
        await #expect(throws: WorkPool.Refusal.timedOut) {
            try await pool.run(timeout: 0.1) {
                // Bounded (a hang guard): the caller gives up after 0.1 s.
                let end = Date(timeIntervalSinceNow: 30)
                while !WorkPool.currentJobIsAbandoned && Date() < end { usleep(1000) }
                noticed.withLock { $0 = WorkPool.currentJobIsAbandoned }
            }
        }
        pool.waitUntilIdle()
        #expect(noticed.withLock { $0 })
    }
}
