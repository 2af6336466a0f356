"""`ha history <goal> [current|list|show] ...`: parse, check cursors, compute, render.

    [current|list] [--target ID]... [--keyword WORD]... [--since CURSOR] [--page CURSOR]
                   [--limit N] [--format md|json]
    show <Dn> | show --request-id ID  [--page CURSOR] [--limit N] [--format md|json]

A continuation (`--page`) must repeat the view and the conditions of the call that gave the
cursor (filters, --since; --limit may change): the cursor pins them, and other conditions are
cursor_mismatch. Views never create or change files.
"""
from __future__ import annotations

import sys

from judgment_toolkit.ha.history import cursor, facts as factsmod, views
from judgment_toolkit.ha.history.compare import Comparer
from judgment_toolkit.ha.history.context import open_history
from judgment_toolkit.ha.history.errors import HistoryError, invalid_input, limit_exceeded
from judgment_toolkit.ha.history.lineage import Basis
from judgment_toolkit.ha.history.model import check_request_id, event_seq
from judgment_toolkit.ha.history.render import render

VIEWS = ("current", "list", "show")
LIMIT_DEFAULT, LIMIT_MAX = 20, 200
_REPEAT = ("--target", "--keyword")
_SINGLE = ("--since", "--page", "--limit", "--format", "--request-id")


class Args:
    def __init__(self, argv):
        self.view = "current"
        rest = list(argv)
        if rest and rest[0] in VIEWS:
            self.view = rest.pop(0)
        self.values = {name: [] for name in _REPEAT}
        positional = []
        it = iter(rest)
        for arg in it:
            if arg.startswith("--"):
                name, eq, value = arg.partition("=")
                if name not in _REPEAT and name not in _SINGLE:
                    raise invalid_input(f"history {self.view}: unknown option {name}")
                if not eq:
                    value = next(it, None)
                    if value is None:
                        raise invalid_input(f"history {self.view}: {name} needs a value")
                if name in _REPEAT:
                    self.values[name].append(value)
                elif name in self.values:
                    raise invalid_input(f"history {self.view}: {name} given twice")
                else:
                    self.values[name] = value
            elif arg.startswith("-") and arg != "-":
                raise invalid_input(f"history {self.view}: unknown option {arg}")
            else:
                positional.append(arg)
        self.targets = self.values["--target"]
        self.keywords = self.values["--keyword"]
        self.since = self.values.get("--since")
        self.page = self.values.get("--page")
        self.format = self.values.get("--format", "md")
        if self.format not in ("md", "json"):
            raise invalid_input(f"--format must be md or json, not {self.format!r}")
        self.limit = _limit(self.values.get("--limit"))
        self.selector = None
        request_id = self.values.get("--request-id")
        if self.view == "show":
            for name in ("--target", "--keyword", "--since"):
                if self.values.get(name):
                    raise invalid_input(f"history show: {name} is for current and list")
            if request_id is not None:
                if positional:
                    raise invalid_input("history show: give an event id or --request-id, "
                                        "not both")
                self.selector = factsmod.Selector(request_id=check_request_id(request_id))
            elif len(positional) == 1:
                self.selector = factsmod.Selector(seq=event_seq(positional[0]))
            else:
                raise invalid_input("history show: needs one event id (D1, D2, ...) or "
                                    "--request-id ID")
        else:
            if request_id is not None:
                raise invalid_input(f"history {self.view}: --request-id is for show")
            if positional:
                raise invalid_input(f"history {self.view}: unexpected argument "
                                    f"{positional[0]!r}")


def _limit(raw) -> int:
    if raw is None:
        return LIMIT_DEFAULT
    if not raw.isascii() or not raw.isdigit() or int(raw) == 0:
        raise invalid_input(f"--limit {raw!r} must be a whole number from 1 to {LIMIT_MAX}")
    if int(raw) > LIMIT_MAX:
        raise limit_exceeded(f"--limit {raw} is over the maximum of {LIMIT_MAX}")
    return int(raw)


def main(goal_arg: str, argv, out=None) -> int:
    out = out or sys.stdout
    text = run(goal_arg, argv)
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(text)
    else:  # always UTF-8, whatever the locale says: the output is Markdown or JSON text
        out.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    return 0


def run(goal_arg: str, argv, cwd: str | None = None) -> str:
    """The rendered view (the whole output) for `ha history <goal_arg> <argv...>`."""
    if argv and argv[0] == "graph":
        from judgment_toolkit.ha.history import graph
        return graph.run(goal_arg, argv[1:], cwd)
    args = Args(argv)
    inp, toplevel = view_input(goal_arg, args, cwd)
    if isinstance(inp, dict):  # no store: the absent document
        return render(inp, args.format)
    if args.view == "show":
        model = views.show(inp, Comparer(toplevel, inp.basis).state)
    elif args.view == "list":
        model = views.listing(inp)
    else:
        model = views.current(inp)
    return render(model, args.format)


def view_input(goal_arg: str, args: Args, cwd: str | None = None):
    """(views.Input of one call: verified facts of the whole range, cursors checked; the
    repository's top level), or (the `absent` model, None) when the goal has no store yet.
    `graph` builds on this too."""
    query = factsmod.Query.of(args.targets, args.keywords)
    ctx = open_history(goal_arg, for_write=False, cwd=cwd)
    key = ctx.store.key
    page = cursor.read_page(key, args.page) if args.page else None
    since = cursor.read_boundary(key, args.since) if args.since else None
    if not ctx.store.exists():
        return views.absent(args.view, ctx.goal.path), None

    basis = _basis(ctx.chain, args, query, page, since)
    want = (since.end,) if since is not None and since.end else ()
    f = factsmod.collect(ctx.store, basis, query,
                         end=page.boundary.end if page is not None else None,
                         want_sha=want, selector=args.selector)
    if page is not None:
        _check_boundary(page.boundary, f.end, f.end_sha, "--page")
    if since is not None:
        _check_boundary(since, f.n, f.line_sha.get(since.end), "--since")
        if since.end > f.end:
            raise HistoryError("cursor_mismatch", "--since: the boundary is after the range "
                               "of this page walk")

    g = ctx.goal
    now = views.Now(g.path, ctx.repo.head(), g.is_clean(ctx.rules), g.digest())
    inp = views.Input(store=ctx.store, key=key, basis=basis, facts=f, now=now, query=query,
                      chain_ok=ctx.chain.ok, since=since, since_text=args.since,
                      pos=page.pos if page is not None else (
                          (0,) if args.view == "show" else (0, 0, 0)),
                      limit=args.limit, selector=args.selector)
    return inp, ctx.repo.toplevel


def _basis(chain, args: Args, query, page, since) -> Basis:
    """The run head to judge lineage against: the chain's, or the one a page cursor pinned.

    A page cursor must come with the same view and conditions (cursor_mismatch) and its head
    must still be a line of the verified chain (cursor_stale); so must a --since boundary's.
    """
    if page is None:
        basis = Basis(chain)
    else:
        selector = args.selector.text if args.selector else None
        if page.view != args.view or page.query != query.digest(args.view, selector, args.since):
            raise HistoryError("cursor_mismatch", f"--page: the cursor was made for "
                               f"`{page.view}` with other conditions; repeat the view, "
                               "filters and --since of the call that gave it")
        if len(page.pos) != (1 if args.view == "show" else 3):
            raise HistoryError("cursor_invalid", "--page: its position does not fit the view")
        pinned = Basis(chain).resolve(page.boundary.head)
        if pinned is None:
            raise HistoryError("cursor_stale", "--page: its run head is no longer in the "
                               "goal's verified run record; run the view again without --page")
        basis = Basis(chain, pinned)
    if since is not None and not basis.holds(since.head):
        raise HistoryError("cursor_stale", "--since: its run head is no longer in the goal's "
                           "verified run record (the lineage diverged or cannot be verified); "
                           "read `current` again for the whole state")
    return basis


def _check_boundary(b: cursor.Boundary, have: int, sha: str | None, flag: str) -> None:
    if b.end == 0:
        return
    if b.end > have or cursor.short_sha(sha) != b.end_sha:
        raise HistoryError("cursor_invalid", f"{flag}: its boundary D{b.end} is not in this "
                           "history (the history was replaced or rewritten)")
