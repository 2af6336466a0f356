"""The read side's computation for `ha history <goal> [current|list|show]`: open the goal, check
the cursors against the verified store and run head, compute the view model and render it.
viewcli parses the command line into `Args` and calls `view`.
"""
from __future__ import annotations

from judgment_toolkit.ha import runs
from judgment_toolkit.ha.history.views import cursor, facts as factsmod, pointfacts, views
from judgment_toolkit.ha.history.views.compare import Comparer
from judgment_toolkit.ha.history.context import open_history
from judgment_toolkit.ha.history.errors import HistoryError
from judgment_toolkit.ha.history.views.lineage import Basis
from judgment_toolkit.ha.history.views.render import render


def view(goal_arg: str, args, cwd: str | None = None) -> str:
    """The rendered view (the whole output) for `ha history <goal_arg>` with parsed `args`
    (viewcli.Args)."""
    inp, toplevel = view_input(goal_arg, args, cwd)
    if isinstance(inp, dict):  # no store: the absent document
        return render(inp, args.format)
    try:
        if args.view == "show":
            model = views.show(inp, Comparer(toplevel, inp.basis).state)
        elif args.view == "list":
            model = views.listing(inp)
        else:
            model = views.current(inp)
    finally:
        release(inp.facts, inp.store)
    return render(model, args.format)


def release(facts, store) -> None:
    """Close what a view holds open: pointfacts' index files and shared lock, the store's
    events and index files."""
    facts.close()
    store.close()


def view_input(goal_arg: str, args, cwd: str | None = None):
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
    end = page.boundary.end if page is not None else None
    g = ctx.goal
    now = views.Now(g.path, *runs.snapshot(g, ctx.rules))
    f = None
    if pointfacts.eligible(args.view, query, since, args.selector):
        f = pointfacts.open_facts(ctx.store, basis, end=end, selector=args.selector)
    if f is None:
        f = factsmod.collect(ctx.store, basis, query, end=end, want_sha=want,
                             selector=args.selector)
    try:
        if page is not None:
            _check_boundary(page.boundary, f.end, f.end_sha, "--page")
        if since is not None:
            _check_boundary(since, f.n, f.line_sha.get(since.end), "--since")
            if since.end > f.end:
                raise HistoryError("cursor_mismatch", "--since: the boundary is after the "
                                   "range of this page walk")
    except BaseException:
        release(f, ctx.store)
        raise
    inp = views.Input(store=ctx.store, key=key, basis=basis, facts=f, now=now, query=query,
                      chain_ok=ctx.chain.ok, since=since, since_text=args.since,
                      pos=page.pos if page is not None else (
                          (0,) if args.view == "show" else (0, 0, 0)),
                      limit=args.limit, selector=args.selector)
    return inp, ctx.repo.toplevel


def _basis(chain, args, query, page, since) -> Basis:
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
