extension UndoManager {
    /// Sends the next group at the end of this turn (once, however many close in it).
    func scheduleSend() {
        guard !outbox.scheduled else { return }
        outbox.scheduled = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.outbox.scheduled = false
            self.sendNext()
        }
    }

    /// Sends the first group waiting, unless one is out.
    private func sendNext(attempt: Int = 0) {
        guard !outbox.sending else { return }
        guard let token = outbox.waiting.first else {
            let waiters = outbox.drained
            outbox.drained.removeAll()
            for waiter in waiters { waiter.resume() }
            return
        }
        guard let entry = groups[token] else {
            outbox.waiting.removeFirst()
            return sendNext()
        }
        outbox.sending = true
        let payload = tokens.payload(token)
        stack.pushLater(entry.name.isEmpty ? Self.unnamedGroupName : entry.name,
                        actions: [UndoAction(undo: payload, redo: payload)]) { [weak self] result in
            Task { @MainActor in self?.answered(token, result, attempt: attempt) }
        }
    }

    private func answered(_ token: UInt64, _ result: Result<UInt64, UndoKitError>, attempt: Int) {
        outbox.sending = false
        switch result {
        case .success(let group):
            groups[token]?.group = group
            outbox.waiting.removeAll { $0 == token }
        case .failure(.busy) where attempt < Self.busyRetries:
            // An undo is being applied: nothing changed; send it again soon,
            // before the groups after it.
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .milliseconds(Self.busyRetryMilliseconds))
                self?.sendNext(attempt: attempt + 1)
            }
            return
        case .failure:
            // undod does not hold it: nothing could undo it.
            epoch += 1
            outbox.waiting.removeAll { $0 == token }
            groups.remove(token)
            post(.synchronized)
        }
        if outbox.waiting.isEmpty { Task { await synchronize() } }
        sendNext()
    }

    /// Sends every group closed here and waits until undod answered them:
    /// what follows (an undo) then finds them in undod.
    func sendAllNow() async {
        closeAllGroups()
        guard !outbox.waiting.isEmpty else { return }
        sendNext()
        await withCheckedContinuation { outbox.drained.append($0) }
    }
}
