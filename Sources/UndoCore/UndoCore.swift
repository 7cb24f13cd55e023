// UndoCore: placeholder until the model lands.
