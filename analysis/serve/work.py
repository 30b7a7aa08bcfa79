"""What a worker process runs (:mod:`.pool`): a request's arguments are the command line's, read by
the CLI's own parser (:mod:`.argv`), and run by the same code as ``rummylab knock``, ``meld`` and
``trace``, so the page shows the numbers the terminal prints for the same seed."""

from __future__ import annotations

from . import argv as AV


class Cancelled(Exception):
    """The job's page has closed."""


BadInput = AV.FieldError     # a request the game cannot take: one sentence and its field


def warm() -> None:
    """Before the first job (a worker's start, not the server's): import the engine and load the
    advisors' kernels that this cache has compiled (a kernel never compiled here is not compiled
    now: the first ask that needs it says so on its page)."""
    from analysis.coldstart import first_compile
    from analysis.studies import knock_advice, meld_plan  # noqa: F401
    from analysis import trace_cmd  # noqa: F401
    from .examples import ASK_EXAMPLES
    for game, example in ASK_EXAMPLES.items():
        if first_compile(game, "advisor") is None:
            try:
                knock(dict(example, variant=game, worlds=1), lambda *a: None)
            except Exception:    # noqa: BLE001 - a warm-up only: the real ask reports any problem
                pass


def run(kind: str, params: dict, emit) -> None:
    """Run job ``kind`` on ``params`` (a request's fields), sending its events by ``emit``."""
    {"knock": knock, "meld": meld, "trace": trace, "sleep": sleep}[kind](params, emit)


def _first_compile(game: str, entry: str, emit):
    """Says on the page when ``game``'s ``entry`` kernels compile for the first time; the
    context that records it (:func:`analysis.coldstart.compiling`)."""
    from analysis.coldstart import compiling, first_compile
    text = first_compile(game, entry)
    if text is not None:
        emit("note", text.removeprefix("rummylab: "))
    return compiling(game, entry)


def knock(params: dict, emit) -> None:
    from analysis.studies.knock_advice import format_advice
    from analysis.studies.knock_advice_cmd import advise_args
    from sim.core.errors import UserInputError
    from analysis.studies.knock_advice import advice_answer
    args = AV.parse("knock", params)
    try:
        with _first_compile(AV.game_name(args.variant), "advisor", emit):
            adv = advise_args(args, progress=lambda snap: emit("progress", snap))
    except UserInputError as e:
        raise BadInput(str(e), AV.field_of(str(e))) from None
    doc = adv.as_dict()
    emit("result", {"advice": doc, "answer": advice_answer(adv), "text": format_advice(adv),
                    "argv": AV.argv("knock", params)})


def meld(params: dict, emit) -> None:
    from analysis.studies.meld_plan import format_meld, plan_position, ranked_plays
    from sim.core.errors import UserInputError
    args = AV.parse("meld", params)
    try:
        with _first_compile(AV.game_name(args.variant), "meld", emit):
            doc = plan_position(args)
    except UserInputError as e:
        raise BadInput(str(e), AV.field_of(str(e))) from None
    others = [] if args.keep else ranked_plays(args, doc)
    emit("result", {"plan": doc, "others": others, "text": format_meld(doc), "argv": AV.argv("meld", params)})


def trace(params: dict, emit) -> None:
    from analysis.trace_cmd import trace_stream
    from sim.core.errors import UserInputError
    from sim.runner import make_spec
    args = AV.parse("trace", params)
    try:
        spec = make_spec(args.variant, rules=args.rule, rule_set=args.rule_set, strategies=args.strategies,
                         n=args.hand + 1, seed=args.seed, players=args.players)
    except UserInputError as e:
        raise BadInput(str(e), AV.field_of(str(e))) from None
    with _first_compile(spec.variant.name, "trace", emit):
        events = next(trace_stream(spec, range(args.hand, args.hand + 1)))
    emit("result", {"events": events, "argv": AV.argv("trace", params)})


def sleep(params: dict, emit) -> None:
    """A job that waits (the pool's own tests: queueing and cancelling without the engine)."""
    import time
    for k in range(int(params.get("steps", 10))):
        time.sleep(float(params.get("step_s", 0.05)))
        emit("progress", {"step": k + 1})
    emit("result", {"slept": True})
