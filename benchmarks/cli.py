"""`memlens bench ...`: the runnable benches on the command line. service/cli.py owns the other
commands and must not import benchmarks (it sits below them), so memlens/cli.py adds these
to service.cli's typer app with `register`."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from service.cli import (
    ConfigOption,
    DataOption,
    SeedOption,
    SizeOption,
    bars_callback,
    console,
    err,
    generated_suite_file,
    open_system,
    read_app_config,
)

# Each bench imports what it runs when it runs (`memlens --help` loads no model library).

SuiteArgument = typer.Argument(
    ..., help="supermemory | egomemreason | videocogqa | m3eval | refmem (generated), locomo (with --file), "
              "ingest (speed per stage on real footage, or on --file), real (questions about real footage), "
              "real-day (a real day of twelve recordings in one memory, questions at their own times), "
              "labels-day (six generated days whose things carry printed labels; --seed), "
              "scale (latency, disk and memory from a day to a year of memory; --quick for CI), "
              "or a suite JSONL file.")


def bench(
    suite: str = SuiteArgument,
    size: str = SizeOption,
    seed: int = SeedOption,
    data: Optional[Path] = DataOption,
    out: Path = typer.Option(Path("bench-output"), help="Predictions (resumable), report.md and plots."),
    systems: Optional[str] = typer.Option(
        None, help="Comma-separated systems to run side by side (default: the suite's usual set, else "
                   "memlens,videorag,egobutler,random,blind)."),
    workers: int = typer.Option(1, help="Parallel asks per system."),
    phrasing: str = typer.Option(
        "template,heldout", help="Which wordings memlens is asked: template (the generator's), dev, heldout "
                                 "(one of each item's phrasings of that split, eval/phrasings), all, or a "
                                 "comma-separated list. Baselines are asked the template only."),
    file: Optional[Path] = typer.Option(None, "--file", help="locomo: the LoCoMo JSON (e.g. ../shared/locomo/locomo_dev.json)."),
    conversations: Optional[int] = typer.Option(None, min=1, help="locomo: only the first K conversations."),
    limit: Optional[int] = typer.Option(None, min=1, help="locomo: at most N questions per conversation, "
                                                          "taken in turn from each category."),
    judge_url: Optional[str] = typer.Option(None, help="refmem: an OpenAI-compatible endpoint (…/v1) that judges "
                                                       "direct answers; its key from OPENAI_API_KEY. Without it, the "
                                                       "offline judge (eval/refmem/judge.py)."),
    judge_model: Optional[str] = typer.Option(None, help="refmem: the judge's model (the paper: gpt-4o-2024-08-06)."),
    quick: bool = typer.Option(False, "--quick", help="scale: a day and a week, 10 other users, 100k vectors, "
                                                       "90 s of video (minutes, for CI)."),
    scale_sizes: Optional[str] = typer.Option(None, help="scale: NAME=DAYS of the wearer's memory per size "
                                                         "(default day=1,week=7,month=30,year=365)."),
    other_users: Optional[int] = typer.Option(None, min=0, help="scale: how many other users share the database."),
    vectors: Optional[int] = typer.Option(None, min=1000, help="scale: vectors in the vector-search measurement "
                                                               "(default 1,000,000; 100,000 with --quick)."),
    keep: Optional[Path] = typer.Option(None, "--keep", help="scale: build the wearer's memory in this folder and "
                                                            "keep it; run again with the same folder to open it "
                                                            "afresh and measure it (or grow it) without rebuilding."),
    ray: Optional[str] = typer.Option(None, "--ray", help="Perceive the suite's videos on a Ray cluster ('local', "
                                                          "'auto', ray://HOST:10001); see `memlens ingest --ray`."),
    ray_workers: int = typer.Option(2, "--ray-workers", min=1, help="With --ray: videos perceived at once."),
    config: Optional[Path] = ConfigOption,
):
    """Run memlens and baselines over a suite; write the report in the paper's table shape,
    with memlens's held-out phrasing accuracy beside its template accuracy. `locomo` runs
    memlens over LoCoMo's conversations: F1, adversarial refusal and evidence recall.
    `refmem` generates a RefMem-style dialogue suite (or reads --data, a suite folder) and
    reports Acc, MemR, BLEU-1 and F1 per dimension and format."""
    from service.console import progress_bars

    if suite == "locomo":
        _bench_locomo(file, out, conversations, limit, config, systems or "memlens")
        return
    if suite == "refmem":
        _bench_refmem(size, seed, data, out, systems or "memlens", judge_url, judge_model, config)
        return
    if suite == "ingest":
        _bench_ingest(file, out, config)
        return
    if suite == "scale":
        _bench_scale(out, quick, scale_sizes, other_users, vectors, config, keep)
        return
    if suite == "labels-day":
        _bench_labels_days(out, seed, config)
        return
    if suite in ("real", "real-day"):
        import tempfile

        from benchmarks.ingest import fresh_config
        from eval.real_bench import run_real_bench, run_real_day
        from perception.progress import RichProgress
        from service.system import MemlensSystem

        with tempfile.TemporaryDirectory(prefix="memlens-real-") as home, progress_bars(err) as bars:
            system = MemlensSystem(fresh_config(read_app_config(config), Path(home)))
            try:
                (run_real_bench if suite == "real" else run_real_day)(system, out, RichProgress(bars))
            finally:
                system.close()
        console.print((out / "report.md").read_text(), markup=False)
        if (out / "reworded" / "report.md").exists():
            console.print((out / "reworded" / "report.md").read_text(), markup=False)
        return
    from benchmarks.suites import make_systems, run_bench
    from eval.generated import GENERATED as SUITES
    from eval.phrasings import DEFAULT_SETS, parse_phrasing_sets
    from eval.schema import Suite

    try:
        phrasing_sets = parse_phrasing_sets(phrasing)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    system = open_system(config, SUITES[suite].skills if suite in SUITES else ())  # the benchmark's own skills
    try:
        if suite in SUITES:
            suite_file = generated_suite_file(suite, size, seed, data, system)
        else:
            suite_file = Path(suite)
            if not suite_file.is_file():
                err.print(f"[red]{suite_file}: no such suite file (generated suites: {', '.join(SUITES)})[/red]")
                raise typer.Exit(2)
        with progress_bars(err) as bars:
            command = " ".join(["memlens", "bench", suite] + (["--size", size, "--seed", str(seed)] if suite in SUITES else [])
                               + ([] if phrasing_sets == DEFAULT_SETS else ["--phrasing", ",".join(phrasing_sets)]))
            names = systems.split(",") if systems else list(
                SUITES[suite].default_systems if suite in SUITES else ("memlens", "videorag", "egobutler", "random", "blind"))
            report = run_bench(Suite.read(suite_file), out, make_systems(names, system, ray, ray_workers),
                               workers, bars_callback(bars), command, phrasing_sets)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(report.read_text())
    console.print(f"report: {report}")


def _bench_report(config: Optional[Path], failure: str, errors: tuple[type[Exception], ...], run) -> None:
    """Run one conversation bench on a system with progress bars, print its report, and turn
    the input errors it names into exit 2 with `failure` before them."""
    from service.console import progress_bars

    system = open_system(config)
    try:
        with progress_bars(err) as bars:
            report = run(system, bars_callback(bars))
    except errors as exc:
        err.print(f"[red]{failure}: {exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(report.read_text(), markup=False)
    console.print(f"report: {report}")


def _bench_ingest(file: Optional[Path], out: Path, config: Optional[Path]) -> None:
    from benchmarks.ingest import run_ingest_bench
    from eval.media import REAL_MEDIA, fetch
    from perception.progress import RichProgress
    from service.console import progress_bars

    if file is not None and not file.is_file():
        err.print(f"[red]bench ingest: {file} is not a file[/red]")
        raise typer.Exit(2)
    files = {file.name: file} if file else {name: fetch(media) for name, media in REAL_MEDIA.items()}
    app_config = read_app_config(config)
    with progress_bars(err) as bars:
        run_ingest_bench(app_config, files, out, RichProgress(bars))
    console.print((out / "report.md").read_text(), markup=False)
    console.print(f"report: {out / 'report.md'}, plot: {out / 'stages.png'}")


def _bench_scale(out: Path, quick: bool, scale_sizes: Optional[str], other_users: Optional[int],
                 vectors: Optional[int], config: Optional[Path], keep: Optional[Path] = None) -> None:
    from benchmarks.scale import KeptMemoryError, run_scale_bench, sizes_from
    from perception.progress import RichProgress
    from service.console import progress_bars

    try:
        sizes = sizes_from(scale_sizes, quick, other_users, vectors)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    command = " ".join(["memlens", "bench", "scale", *(["--quick"] if quick else []),
                        *(["--scale-sizes", scale_sizes] if scale_sizes else []),
                        *(["--other-users", str(other_users)] if other_users is not None else []),
                        *(["--vectors", str(vectors)] if vectors is not None else []),
                        *(["--keep", str(keep)] if keep is not None else []), "--out", str(out)])
    app_config = read_app_config(config)
    try:
        with progress_bars(err) as bars:
            run_scale_bench(app_config, out, sizes, RichProgress(bars), command=command, keep=keep)
    except KeptMemoryError as exc:  # a --keep folder that is not this bench's, or built otherwise
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    console.print((out / "report.md").read_text(), markup=False)
    console.print(f"report: {out / 'report.md'}, plot: {out / 'latency.png'}")


def _bench_labels_days(out: Path, seed: int, config: Optional[Path]) -> None:
    import tempfile

    from benchmarks.ingest import fresh_config
    from eval.labels_days import run_labels_days
    from perception.progress import RichProgress
    from service.console import progress_bars
    from service.system import MemlensSystem

    with tempfile.TemporaryDirectory(prefix="memlens-labels-") as home, progress_bars(err) as bars:
        system = MemlensSystem(fresh_config(read_app_config(config), Path(home)))
        try:
            run_labels_days(system, out, (seed,), RichProgress(bars))
        finally:
            system.close()
    console.print((out / "report.md").read_text(), markup=False)


def _bench_locomo(file: Optional[Path], out: Path, conversations: Optional[int], limit: Optional[int],
                  config: Optional[Path], solver: str = "memlens") -> None:
    from benchmarks.locomo import run_locomo_bench
    from perception.errors import PerceptionError

    if file is None or not file.is_file():
        err.print(f"[red]bench locomo needs --file, a LoCoMo JSON file{f' ({file} is not one)' if file else ''}[/red]")
        raise typer.Exit(2)
    command = " ".join(["memlens", "bench", "locomo", "--file", str(file), "--out", str(out)]
                       + (["--conversations", str(conversations)] if conversations else [])
                       + (["--limit", str(limit)] if limit else [])
                       + (["--systems", solver] if solver != "memlens" else []))
    _bench_report(config, f"cannot run LoCoMo on {file}", (ValueError, KeyError, PerceptionError),
                  lambda system, bars: run_locomo_bench(system, file, out, conversations, limit, bars, command, solver))


def _bench_refmem(size: str, seed: int, data: Optional[Path], out: Path, solver: str, judge_url: Optional[str],
                  judge_model: Optional[str], config: Optional[Path]) -> None:
    import os

    from benchmarks.refmem import run_refmem_bench
    from eval.refmem.dataset import SuiteError, read_suite
    from eval.refmem.judge import make_judge
    from eval.refmem.world import SIZES, generate_suite
    from perception.errors import PerceptionError

    if size not in SIZES and data is None:
        err.print(f"[red]bench refmem: --size is one of {', '.join(SIZES)}[/red]")
        raise typer.Exit(2)

    def run(system, bars):
        if data is not None and (data / "items.jsonl").is_file():
            suite, where = read_suite(data), ["--data", str(data)]
        else:
            suite = generate_suite((data or system.config.home / "bench") / f"refmem-{size}-seed{seed}", size, seed)
            where = ["--size", size, "--seed", str(seed)]
        command = " ".join(["memlens", "bench", "refmem", *where, "--out", str(out)]
                           + (["--systems", solver] if solver != "memlens" else [])
                           + (["--judge-url", judge_url, "--judge-model", str(judge_model)] if judge_url else []))
        judge = make_judge(judge_url, judge_model, os.environ.get("OPENAI_API_KEY"))
        return run_refmem_bench(system, suite, out, judge, bars, command, solver)

    _bench_report(config, "cannot run RefMem", (ValueError, SuiteError, PerceptionError), run)


def register(app: typer.Typer) -> typer.Typer:
    """Add `bench` to `app` (once; registering again changes nothing) and return it."""
    if not any(command.callback is bench for command in app.registered_commands):
        app.command()(bench)
    return app
