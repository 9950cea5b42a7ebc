import Foundation
import Testing
@testable import WshViewModel

@Suite("OperationHistory")
struct OperationHistoryTests {
    @Test("given three operations when undone twice and redone once then the states and counts follow")
    func undoRedo() {
        var history = OperationHistory(initial: 0)
        history.record("one", leaving: 1)
        history.record("two", leaving: 2)
        history.record("three", leaving: 3)

        #expect(history.undo() == 2)
        #expect(history.undo() == 1)
        #expect(history.operations == ["one"])
        #expect(history.redo() == 2)
        #expect(history.operationCount == 2)
        #expect(history.operationText(at: 1) == "two")
        #expect(history.current == 2)
        #expect(history.canUndo && history.canRedo)
    }

    @Test("given undone operations when a new one is recorded then they cannot be redone")
    func recordAfterUndo_dropsRedoTail() {
        var history = OperationHistory(initial: "a")
        history.record("to b", leaving: "b")
        history.record("to c", leaving: "c")
        _ = history.undo()
        _ = history.undo()

        history.record("to d", leaving: "d")

        #expect(history.operations == ["to d"])
        #expect(!history.canRedo)
        #expect(history.redo() == nil)
        #expect(history.undo() == "a")
    }

    @Test("given an empty history when undone or redone then nothing is returned")
    func empty() {
        var history = OperationHistory(initial: 0)

        #expect(history.undo() == nil)
        #expect(history.redo() == nil)
        #expect(!history.canUndo)
    }

    @Test("given operations when cleared then no operation is left and the new start is current")
    func clear() {
        var history = OperationHistory(initial: 0)
        history.record("one", leaving: 1)

        history.clear(startingFrom: 9)

        #expect(history.operationCount == 0)
        #expect(history.current == 9)
        #expect(!history.canRedo)
    }

    @Test("given 100 000 operations when undone and redone then it is the cursor that moves")
    func manyOperations() {
        var history = OperationHistory(initial: 0, limit: 100_000)
        for n in 1...100_000 { history.record("op \(n)", leaving: n) }

        for _ in 0..<50_000 { _ = history.undo() }
        #expect(history.current == 50_000)
        for _ in 0..<50_000 { _ = history.redo() }
        #expect(history.current == 100_000)
        #expect(history.operationText(at: 99_999) == "op 100000")
    }
}

@Suite("OperationHistory: the bound")
struct OperationHistoryBoundTests {
    @Test("given a limit of 3 when 5 operations are recorded then the last 3 are kept and 2 are counted as dropped")
    func keepsTheLastOperations() {
        var history = OperationHistory(initial: 0, limit: 3)
        for n in 1...5 { history.record("op \(n)", leaving: n) }

        #expect(history.operations == ["op 3", "op 4", "op 5"])
        #expect(history.droppedCount == 2)
        #expect(history.undo() == 4)
        #expect(history.undo() == 3)
        #expect(history.undo() == 2)
        #expect(history.undo() == nil)
        #expect(history.redo() == 3)
    }

    @Test("given the default limit when 4000 operations are recorded then 1000 are kept")
    func defaultLimit() {
        var history = OperationHistory(initial: 0)
        for n in 1...4_000 { history.record("fetch \(n)", leaving: n) }

        #expect(OperationHistory<Int>.defaultLimit == 1000)
        #expect(history.operationCount == 1000)
        #expect(history.droppedCount == 3000)
        for _ in 0..<1000 { _ = history.undo() }
        #expect(history.current == 3000)
    }

    @Test("given undone operations when a redo is revised then the remote effect and later states change")
    func reviseRedo() {
        var history = OperationHistory(initial: "a")
        history.record("post", leaving: "b", remote: PostedStatusEffect(id: "1", text: "t"))
        history.record("detail", leaving: "b+")
        _ = history.undo()
        _ = history.undo()

        history.reviseRedo(remote: PostedStatusEffect(id: "2", text: "t")) { $0.replacingOccurrences(of: "b", with: "B") }

        #expect((history.nextRedo?.remote as? PostedStatusEffect) == PostedStatusEffect(id: "2", text: "t"))
        #expect(history.redo() == "B")
        #expect(history.redo() == "B+")
    }
}
