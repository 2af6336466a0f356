"""Exit codes shared by every ha command, and the one exception type that carries them.

Commands raise HaError; ha.cli prints `ha: <message>` (or `ha: <code>: <message>` when the
error has a machine code, as the decision history's do) and exits with `exit_code`.
"""

USAGE = 64        # bad arguments, unknown flags, malformed input
REFUSED = 65      # the request is understood and refused (not started, broken chain, ...)
UNSUPPORTED = 66  # unsupported run rules or an unsupported history schema
INTERNAL = 70     # internal error, I/O failure, or a write that may have applied


class HaError(Exception):
    def __init__(self, message, exit_code=REFUSED, code=None):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.code = code

    def render(self):
        return f"ha: {self.code}: {self.message}" if self.code else f"ha: {self.message}"
