"""A strict flag parser shared by both command lines.

Rules: flags are `--name value` or `--name=value`; every flag may be given once; unknown flags
and stray arguments are errors. Flag names are field names with `_` spelled `-`, so an error can
always name the field it concerns.
"""


class UsageError(Exception):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


def flag_name(field):
    return "--" + field.replace("_", "-")


def parse(argv, fields, positionals=0):
    """Parse argv into (list of positionals, {field: value}) for the given flag fields."""
    known = {flag_name(f): f for f in fields}
    values, pos = {}, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--") and len(arg) > 2:
            name, eq, inline = arg.partition("=")
            field = known.get(name)
            if field is None:
                raise UsageError(name, "unknown flag")
            if field in values:
                raise UsageError(field, f"{name} given more than once")
            if eq:
                values[field] = inline
            elif i + 1 < len(argv):
                i += 1
                values[field] = argv[i]
            else:
                raise UsageError(field, f"{name} needs a value")
        elif len(pos) < positionals:
            pos.append(arg)
        else:
            raise UsageError(None, f"unexpected argument {arg!r}")
        i += 1
    return pos, values


def require(values, *fields):
    for field in fields:
        if field not in values:
            raise UsageError(field, f"missing {flag_name(field)}")
