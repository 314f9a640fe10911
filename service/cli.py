"""The `memlens` command line: ingest, ask, serve, forget, doctor, demo."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from agent.llm import LLMError
from perception.errors import PerceptionError
from perception.transcripts import is_transcript
from service.config import ConfigError, load_config
from service.console import print_answer, progress_bars
from service.remote import RemoteError, RemoteMemlens
from service.system import MemlensSystem
from service.views import answer_view, report_view

app = typer.Typer(add_completion=False, help="memlens: remember long video, answer with evidence.")
console = Console()
err = Console(stderr=True)
ConfigOption = typer.Option(None, "--config", "-c", help="TOML config file (else $MEMLENS_CONFIG).")
ServerOption = typer.Option(None, "--server", envvar="MEMLENS_SERVER",
                            help="A running `memlens serve` (URL) to hand the work to: its models are loaded.")
ApiKeyOption = typer.Option(None, "--api-key", envvar="MEMLENS_API_KEY",
                            help="The server's API key (it decides the memory namespace there).")


def _system_config(config_path: Optional[Path]):
    try:
        return load_config(config_path)
    except ConfigError as exc:
        err.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc


def _system(config_path: Optional[Path]) -> MemlensSystem:
    config = _system_config(config_path)
    try:
        return MemlensSystem(config)
    except ConfigError as exc:
        err.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc


def _when(value: Optional[str], flag: str) -> Optional[datetime]:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        err.print(f"[red]{flag}: {value!r} is not an ISO date-time such as 2026-11-23T08:30[/red]")
        raise typer.Exit(2) from None


@app.command()
def ingest(
    videos: list[Path] = typer.Argument(..., help="Videos (any container FFmpeg reads) or transcripts "
                                                  "(.json, .txt, .jsonl)."),
    start: Optional[str] = typer.Option(None, help="Wearer's clock at the first frame (ISO; one file); else metadata."),
    namespace: Optional[str] = typer.Option(None, help="Memory owner."),
    as_json: bool = typer.Option(False, "--json"),
    config: Optional[Path] = ConfigOption,
    server: Optional[str] = ServerOption,
    api_key: Optional[str] = ApiKeyOption,
    ray: Optional[str] = typer.Option(
        None, "--ray", help="Perceive the videos on a Ray cluster: 'local' starts one here, 'auto' joins this "
                            "machine's, ray://HOST:10001 a remote one. Memory is written here."),
    workers: int = typer.Option(2, "--workers", min=1, help="With --ray: videos perceived at once (a CPU each)."),
):
    """Perceive videos, or read transcripts (.json LoCoMo, .txt thread, .jsonl chat), and
    write what they hold into memory."""
    when = _when(start, "--start")
    if when is not None and len(videos) > 1:
        err.print("[red]--start gives one file's clock: ingest the files one by one, or leave it to their metadata[/red]")
        raise typer.Exit(2)
    missing = [v for v in videos if not v.is_file()]
    if missing and (server or ray):  # read here, then sent: say so before anything is sent
        err.print(f"[red]cannot ingest:[/red] no such file: {missing[0]}")
        raise typer.Exit(2 if server else 1)
    if server:
        if ray:
            err.print("[red]--ray and --server: the server perceives with its own workers[/red]")
            raise typer.Exit(2)
        remote = _remote(server, api_key, namespace)
        for video in videos:
            _ingest_remotely(remote, video, when, as_json)
        return
    system = _system(config)
    films = [v for v in videos if not is_transcript(v)]
    try:
        reports = [r for v in videos if is_transcript(v) for r in system.ingest_transcript(v, namespace, when)]
        with progress_bars(err) as progress:
            if ray and films:
                from service.cluster import ingest_on_ray

                reports += ingest_on_ray(system, films, [namespace] * len(films), [when] * len(films), ray, workers,
                                         progress)
            else:
                reports += [system.ingest(v, namespace, when, progress=progress) for v in films]
    except PerceptionError as exc:
        err.print(f"[red]cannot ingest:[/red] {exc}")
        raise typer.Exit(1) from exc
    finally:
        system.close()
    if as_json:
        views = [report_view(r) for r in reports]
        console.print_json(json.dumps(views[0] if len(views) == 1 else views))
        return
    for report in reports:
        console.print(f"ingested [bold]{report.path}[/bold] as {report.video_id} in {report.seconds:.1f} s "
                      f"({report.realtime_factor:.2f}x real time): {report.records}")
        for channel, status in report.channels.items():
            console.print(f"  [dim]{channel}: {status}[/dim]")


def _remote(server: str, api_key: str | None, namespace: str | None) -> RemoteMemlens:
    if namespace:
        err.print("[red]--namespace does not apply with --server: the API key decides the namespace there[/red]")
        raise typer.Exit(2)
    return RemoteMemlens(server, api_key)


def _ingest_remotely(remote: RemoteMemlens, video: Path, start: datetime | None, as_json: bool) -> None:
    try:
        with progress_bars(err) as progress:
            task = progress.add_task("server", total=100)
            result = remote.ingest(video, start, lambda stage, percent: progress.update(
                task, description=stage[:10], completed=percent))
    except RemoteError as exc:
        err.print(f"[red]cannot ingest:[/red] {exc}")
        raise typer.Exit(1) from exc
    if as_json:
        console.print_json(json.dumps(result))
        return
    for report in result.get("conversations", [result]):
        console.print(f"ingested [bold]{video}[/bold] on {remote.base_url} as {report['video_id']} in "
                      f"{report['seconds']:.1f} s ({report['realtime_factor']:.2f}x real time): {report['records']}")


def _ask_remotely(remote: RemoteMemlens, question: str, at: datetime | None, options: list[str] | None,
                  as_json: bool) -> None:
    try:
        answer = remote.ask(question, at, options)
    except RemoteError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    if as_json:
        console.print_json(json.dumps(answer))
        return
    style = "yellow" if answer["abstained"] else "green"
    console.print(f"[bold]Q:[/bold] {answer['question']}\n[bold {style}]A:[/bold {style}] {answer['answer']}")
    for e in answer["evidence"][:5]:
        console.print(f"  [dim]{e['wall_start'][11:19]} {e['source']} {(e['video_id'] or '')[:8]}@{e['start']:.1f}[/dim] "
                      f"{e['text'][:100]}")


@app.command()
def ask(
    question: str,
    at: Optional[str] = typer.Option(None, help="Question time (ISO); memory is cut strictly before it."),
    options: Optional[list[str]] = typer.Option(None, "--options", "-o", help="A choice; repeat per option."),
    namespace: Optional[str] = typer.Option(None),
    as_json: bool = typer.Option(False, "--json"),
    config: Optional[Path] = ConfigOption,
    server: Optional[str] = ServerOption,
    api_key: Optional[str] = ApiKeyOption,
):
    """Answer a question from memory, with evidence, or abstain."""
    if server:
        _ask_remotely(_remote(server, api_key, namespace), question, _when(at, "--at"), options, as_json)
        return
    system = _system(config)
    try:
        answer = system.ask(question, namespace, _when(at, "--at"), options)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    except LLMError as exc:  # a configured model that is down is an error, never an abstention
        err.print(f"[red]language model failed: {exc}[/red]")
        raise typer.Exit(3) from exc
    finally:
        system.close()
    if as_json:
        console.print_json(json.dumps(answer_view(answer)))
    else:
        print_answer(console, answer)


@app.command()
def forget(
    video: Optional[str] = typer.Option(None, help="Video id to forget."),
    start: Optional[str] = typer.Option(None, "--from", help="Start of a wall-clock range (ISO)."),
    end: Optional[str] = typer.Option(None, "--to", help="End of the range (ISO)."),
    namespace: Optional[str] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Delete every record, vector and cache entry of a video or a time range."""
    system = _system(config)
    lo, hi = _when(start, "--from"), _when(end, "--to")
    if (lo is None) != (hi is None) or (video is None and lo is None):
        err.print("[red]give --video, or both --from and --to[/red]")
        raise typer.Exit(2)
    try:
        removed = system.forget(namespace or system.config.service.default_namespace, video,
                                (lo, hi) if lo else None)
    except (LookupError, ValueError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(f"forgot {removed} records")


name_app = typer.Typer(help="Name what memory has seen.")
app.add_typer(name_app, name="name")


def _name(noun: str, which: str, name: str, namespace: Optional[str], config: Optional[Path]) -> None:
    system = _system(config)
    try:
        named = system.name(namespace or system.config.service.default_namespace, noun, which, name)
    except (KeyError, ValueError) as exc:
        err.print(f"[red]{exc.args[0] if isinstance(exc, KeyError) else exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(f"{noun} {named['id']} is now {named['name']} ({named['records_changed']} memories re-written)")


@name_app.command("person")
def name_person(
    who: str = typer.Argument(..., help='Who: "person 3", 3, or their current name (`memlens people`).'),
    name: str = typer.Argument(..., help="What to call them from now on."),
    namespace: Optional[str] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Name someone memory has seen by face; what memory says about them is re-written."""
    _name("person", who, name, namespace, config)


@name_app.command("place")
def name_place(
    which: str = typer.Argument(..., help='Which: "place 3", 3, or its current name (`memlens places`).'),
    name: str = typer.Argument(..., help="What to call it from now on."),
    namespace: Optional[str] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Name a place memory tells by its views; visits and what was seen there are re-written."""
    _name("place", which, name, namespace, config)


def _known(noun: str, namespace: Optional[str], config: Optional[Path]) -> None:
    system = _system(config)
    try:
        rows = system.known(namespace or system.config.service.default_namespace, noun)
    finally:
        system.close()
    for row in rows:
        named = f"{row['name']} (named by {row['named_by']})" if row["name"] else "unnamed"
        console.print(f"{noun} {row['id']}: {named}, {row['sightings']} sightings")


@app.command()
def people(namespace: Optional[str] = typer.Option(None), config: Optional[Path] = ConfigOption):
    """The people memory has seen by face, and the names they go by."""
    _known("person", namespace, config)


@app.command()
def places(namespace: Optional[str] = typer.Option(None), config: Optional[Path] = ConfigOption):
    """The places memory tells apart by their views, and the names they go by."""
    _known("place", namespace, config)


@app.command()
def serve(
    host: Optional[str] = typer.Option(None), port: Optional[int] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Run the REST API (OpenAPI docs at /docs)."""
    import uvicorn

    from service.api import create_app

    system = _system(config)
    cfg = system.config.service
    try:
        cfg.refuse_open_exposure(host or cfg.host)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        system.close()
        raise typer.Exit(2) from exc
    if not cfg.api_keys:
        err.print(f"[yellow]no API keys configured: serving one local namespace ({cfg.default_namespace!r}) "
                  f"without authentication on {host or cfg.host} only; `memlens key NAME` makes a key[/yellow]")
    uvicorn.run(create_app(system), host=host or cfg.host, port=port or cfg.port)


@app.command()
def key(namespace: str = typer.Argument(..., help="The memory namespace the key opens.")):
    """Make a new API key: give the key to its client, put the hashed line in the config."""
    import secrets

    from service.config import hash_key

    new = secrets.token_urlsafe(32)
    console.print(f"API key for {namespace!r} (shown once; hand it to the client):\n  {new}\n"
                  f"config.toml, stores only its hash:\n  [service.api_keys]\n  \"{hash_key(new)}\" = \"{namespace}\"",
                  markup=False, soft_wrap=True)


@app.command()
def doctor(config: Optional[Path] = ConfigOption):
    """Which models and channels are available, and why not."""
    from service.doctor import run_doctor

    ok = run_doctor(_system(config), console)
    raise typer.Exit(0 if ok else 1)


def _bars_callback(bars):
    """A runner/generator progress callback drawing one rich bar per stage."""
    tasks: dict[str, int] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bars.add_task(stage, total=total)
        bars.update(tasks[stage], completed=done, total=total)

    return progress


def _generated_suite(name: str, size: str, seed: int, data: Optional[Path], system: MemlensSystem) -> Path:
    from eval.generated import generated_suite

    suite = generated_suite(name)
    root = data or system.config.home / "bench"
    with progress_bars(err) as bars:
        return suite.build(size, root, system.memory.embedder.embed, seed, _bars_callback(bars))


SuiteArgument = typer.Argument(
    ..., help="supermemory | egomemreason | videocogqa | m3eval | refmem (generated), locomo (with --file), "
              "ingest (speed per stage on real footage, or on --file), real (questions about real footage), "
              "scale (latency, disk and memory from a day to a year of memory; --quick for CI), "
              "or a suite JSONL file.")
SizeOption = typer.Option("smoke", help="Generated suites: smoke (a few minutes of video, CI) or full.")
SeedOption = typer.Option(0, help="Generated suites: the world seed (generation is deterministic for it).")
DataOption = typer.Option(None, help="Where generated videos and suites go (default: <home>/bench).")


@app.command()
def generate(
    suite: str = typer.Argument(..., help="supermemory | egomemreason | videocogqa | m3eval"),
    size: str = SizeOption,
    seed: int = SeedOption,
    data: Optional[Path] = DataOption,
    config: Optional[Path] = ConfigOption,
):
    """Simulate and render a benchmark's videos (a multi-day life, symbolic scenes, composed
    stimuli), then write the suite file over them."""
    system = _system(config)
    try:
        path = _generated_suite(suite, size, seed, data, system)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(f"suite: {path}")


@app.command("fit-sufficiency")
def fit_sufficiency_command(
    runs: list[str] = typer.Argument(..., help="SUITE.jsonl:PREDICTIONS_DIR pairs of finished `memlens bench` runs, "
                                                "or ROWS.jsonl files of development answers (eval/calibration/)."),
    out: Optional[Path] = typer.Option(None, help="Where to write the weights (default: the agent's own file)."),
):
    """Fit the answer-sufficiency model on development runs (template and dev phrasings)."""
    from agent.sufficiency import FITTED
    from service.calibrate import fit_sufficiency

    pairs, extra = [], []
    for run in runs:
        if run.endswith(".jsonl") and ":" not in run and Path(run).is_file():
            extra.append(Path(run))
            continue
        suite, _, predictions = run.partition(":")
        if not predictions or not Path(suite).is_file() or not Path(predictions).is_dir():
            err.print(f"[red]{run}: expected SUITE.jsonl:PREDICTIONS_DIR[/red]")
            raise typer.Exit(2)
        pairs.append((Path(suite), Path(predictions)))
    try:
        data = fit_sufficiency(pairs, out or FITTED, extra)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    console.print(f"fitted on {data['rows']} answers ({data['positives']} right): {data['weights']}, bias {data['bias']}")


@app.command()
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
    if suite == "real":
        import tempfile

        from eval.real_bench import run_real_bench
        from perception.progress import RichProgress
        from service.ingest_bench import fresh_config

        with tempfile.TemporaryDirectory(prefix="memlens-real-") as home, progress_bars(err) as bars:
            system = MemlensSystem(fresh_config(_system_config(config), Path(home)))
            try:
                run_real_bench(system, out, RichProgress(bars))
            finally:
                system.close()
        console.print((out / "report.md").read_text(), markup=False)
        return
    from eval.generated import GENERATED as SUITES
    from eval.phrasings import DEFAULT_SETS, parse_phrasing_sets
    from eval.schema import Suite
    from service.bench import make_systems, run_bench

    try:
        phrasing_sets = parse_phrasing_sets(phrasing)
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    system = _system(config)
    try:
        if suite in SUITES:
            suite_file = _generated_suite(suite, size, seed, data, system)
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
                               workers, _bars_callback(bars), command, phrasing_sets)
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
    system = _system(config)
    try:
        with progress_bars(err) as bars:
            report = run(system, _bars_callback(bars))
    except errors as exc:
        err.print(f"[red]{failure}: {exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(report.read_text(), markup=False)
    console.print(f"report: {report}")


def _bench_ingest(file: Optional[Path], out: Path, config: Optional[Path]) -> None:
    from eval.media import REAL_MEDIA, fetch
    from perception.progress import RichProgress
    from service.ingest_bench import run_ingest_bench

    if file is not None and not file.is_file():
        err.print(f"[red]bench ingest: {file} is not a file[/red]")
        raise typer.Exit(2)
    files = {file.name: file} if file else {name: fetch(media) for name, media in REAL_MEDIA.items()}
    app_config = _system_config(config)
    with progress_bars(err) as bars:
        run_ingest_bench(app_config, files, out, RichProgress(bars))
    console.print((out / "report.md").read_text(), markup=False)
    console.print(f"report: {out / 'report.md'}, plot: {out / 'stages.png'}")


def _bench_scale(out: Path, quick: bool, scale_sizes: Optional[str], other_users: Optional[int],
                 vectors: Optional[int], config: Optional[Path], keep: Optional[Path] = None) -> None:
    from perception.progress import RichProgress
    from service.scale_bench import KeptMemoryError, run_scale_bench, sizes_from

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
    app_config = _system_config(config)
    try:
        with progress_bars(err) as bars:
            run_scale_bench(app_config, out, sizes, RichProgress(bars), command=command, keep=keep)
    except KeptMemoryError as exc:  # a --keep folder that is not this bench's, or built otherwise
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    console.print((out / "report.md").read_text(), markup=False)
    console.print(f"report: {out / 'report.md'}, plot: {out / 'latency.png'}")


def _bench_locomo(file: Optional[Path], out: Path, conversations: Optional[int], limit: Optional[int],
                  config: Optional[Path], solver: str = "memlens") -> None:
    from service.locomo import run_locomo_bench

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

    from eval.refmem.dataset import SuiteError, read_suite
    from eval.refmem.judge import make_judge
    from eval.refmem.world import SIZES, generate_suite
    from service.refmem import run_refmem_bench

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


@app.command()
def demo(
    out: Path = typer.Option(Path("demo-output"), help="Where the video and memory go."),
    seed: int = typer.Option(0),
):
    """Render the synthetic morning video, ingest it and ask the scripted questions."""
    from service.demo import run_demo

    raise typer.Exit(run_demo(out, seed, console))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
