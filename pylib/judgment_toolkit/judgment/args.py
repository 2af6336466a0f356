"""The judgment modules' one usage error and the flag spelling of a field.

The command lines are parsed in Bash (scripts/lib/cli.sh); what is left here is what the
Python jobs still say about a value they check themselves (the lexicon files, the rank mode):
a UsageError names its field, and a field is spelled as a flag with `_` as `-`.
"""


class UsageError(Exception):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


def flag_name(field):
    return "--" + field.replace("_", "-")
