"""The judgment command lines' flag rules, on the shared scanner (judgment_toolkit.cliargs).

Rules: flags are `--name value` or `--name=value`; every flag may be given once; unknown flags
and stray arguments are errors. Flag names are field names with `_` spelled `-`, so an error can
always name the field it concerns.
"""
from ..cliargs import ArgError, HelpRequested, scan


class UsageError(Exception):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


def flag_name(field):
    return "--" + field.replace("_", "-")


def field_name(flag):
    return flag[2:].replace("-", "_")


def parse(argv, fields, positionals=0, switches=()):
    """Parse argv into (list of positionals, {field: value}) for the given flag fields; switch
    fields given are in the dict with the value True. HelpRequested for -h/--help."""
    try:
        p = scan(argv, single=[flag_name(f) for f in fields],
                 switches=[flag_name(f) for f in switches], max_positional=positionals)
    except ArgError as e:
        if e.kind == "unknown":
            raise UsageError(e.name, "unknown flag") from None
        if e.kind == "twice":
            raise UsageError(field_name(e.name), f"{e.name} given more than once") from None
        if e.kind == "needs_value":
            raise UsageError(field_name(e.name), f"{e.name} needs a value") from None
        raise UsageError(None, f"unexpected argument {e.name!r}") from None
    if p.help:
        raise HelpRequested()
    values = {field_name(k): v for k, v in p.values.items()}
    values.update((field_name(s), True) for s in p.switches)
    return p.positional, values


def require(values, *fields):
    for field in fields:
        if field not in values:
            raise UsageError(field, f"missing {flag_name(field)}")
