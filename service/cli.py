"""The `memlens` command line: ingest, ask, serve, forget, doctor, demo. `memlens bench` lives
above the service (benchmarks/cli.py); memlens/cli.py adds it to this app for the `memlens` command."""
from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from service.remote import RemoteMemlens
    from service.system import MemlensSystem

# Each command imports what it needs when it runs: `memlens --version` and `--help` load no
# model library, and a question loads only the question's (benchmarks/cold_start.py).

app = typer.Typer(add_completion=False, help="memlens: remember long video, answer with evidence.")
console = Console()
err = Console(stderr=True)
ConfigOption = typer.Option(None, "--config", "-c", help="TOML config file (else $MEMLENS_CONFIG).")
ServerOption = typer.Option(None, "--server", envvar="MEMLENS_SERVER",
                            help="A running `memlens serve` (URL) to hand the work to: its models are loaded.")
ApiKeyOption = typer.Option(None, "--api-key", envvar="MEMLENS_API_KEY",
                            help="The server's API key (it decides the memory namespace there).")


def _print_version(wanted: bool) -> None:
    if wanted:
        from service.version import NOT_INSTALLED, installed_version

        found = installed_version()
        console.print(f"memlens {found}" if found != NOT_INSTALLED else "memlens (not installed)")
        raise typer.Exit()


@app.callback()
def _options(_version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                           help="Print the version and exit.")) -> None:
    """memlens: remember long video, answer with evidence."""
    from service.home import private_files

    private_files()  # memories, uploads and exports are their owner's alone


def read_app_config(config_path: Optional[Path]):
    from service.config import ConfigError, load_config

    try:
        return load_config(config_path)
    except ConfigError as exc:
        err.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc


def open_system(config_path: Optional[Path], skills: Sequence[str] = ()) -> MemlensSystem:
    """The configured system; `skills` are turned on beside the configuration's own (a
    benchmark's bench turns on the benchmark's skills)."""
    from service.config import ConfigError
    from service.system import MemlensSystem

    config = read_app_config(config_path)
    config.skills = tuple(dict.fromkeys([*config.skills, *skills]))
    try:
        _check_home(config.home)
        return MemlensSystem(config)
    except ConfigError as exc:
        err.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc
    except OSError as exc:  # a home that is a file, on a read-only disk, not ours to write
        where = exc.filename or config.home
        err.print(f"[red]cannot open memory at {config.home}:[/red] {where}: {exc.strerror or exc} "
                  "(set MEMLENS_HOME or --config to a folder you can write)")
        raise typer.Exit(2) from exc


@contextlib.contextmanager
def using_system(config_path: Optional[Path], failure: str, errors: tuple[type[Exception], ...],
                 code: int = 2) -> Iterator[MemlensSystem]:
    """The configured system for one command, closed after it; the user errors `errors`
    name become one line, `failure: reason`, and exit `code`."""
    system = open_system(config_path)
    try:
        yield system
    except errors as exc:
        err.print(f"[red]{failure}: {exc}[/red]")
        raise typer.Exit(code) from exc
    finally:
        system.close()


def _check_home(home: Path) -> None:
    """Memory opens lazily, deep inside the first command that reads it: a home that cannot
    hold it fails here instead, with the reason (OSError naming the folder)."""
    from service.home import make_private_home

    if home.exists() and not home.is_dir():
        raise NotADirectoryError(20, "a file, not a folder", str(home))
    make_private_home(home)
    if not os.access(home, os.W_OK | os.X_OK):
        raise PermissionError(13, "not writable", str(home))


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
    from perception.errors import PerceptionError
    from perception.transcripts import is_transcript
    from service.console import progress_bars
    from service.views import report_view

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
    system = open_system(config)
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
                      f"({report.speed}): {report.records}")
        for channel, status in report.channels.items():
            console.print(f"  [dim]{channel}: {status}[/dim]")


def _remote(server: str, api_key: str | None, namespace: str | None) -> RemoteMemlens:
    from service.remote import RemoteMemlens

    if namespace:
        err.print("[red]--namespace does not apply with --server: the API key decides the namespace there[/red]")
        raise typer.Exit(2)
    return RemoteMemlens(server, api_key)


def _ingest_remotely(remote: RemoteMemlens, video: Path, start: datetime | None, as_json: bool) -> None:
    from service.console import progress_bars
    from service.remote import RemoteError
    from service.system import speed_phrase

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
                      f"{report['seconds']:.1f} s ({speed_phrase(report['duration'], report['seconds'])}): "
                      f"{report['records']}")


def _ask_remotely(remote: RemoteMemlens, question: str, at: datetime | None, options: list[str] | None,
                  as_json: bool) -> None:
    from agent.state import CLOSEST
    from service.console import excerpt
    from service.remote import RemoteError

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
    if answer["abstained"] and answer["evidence"]:
        console.print(f"  [dim]{CLOSEST}:[/dim]")
    for e in answer["evidence"][:5]:
        console.print(f"  [dim]{'also: ' if e.get('role') == 'related' else ''}{e['wall_start'][11:19]} {e['source']} {(e['video_id'] or '')[:8]}@{e['start']:.1f}[/dim] "
                      f"{excerpt(e['text'])}")


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
    from agent.llm import LLMError
    from service.console import print_answer
    from service.views import answer_view

    if server:
        _ask_remotely(_remote(server, api_key, namespace), question, _when(at, "--at"), options, as_json)
        return
    system = open_system(config)
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
    person: Optional[str] = typer.Option(None, help="A person to forget (\"person 3\" or their name), on its own."),
    namespace: Optional[str] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Delete every record, vector and cache entry of a video or a time range (--from alone:
    everything since; --to alone: everything before), or forget a person: their face, their
    sightings, and their name wherever memory wrote it (what was said stays, as someone's)."""
    from service.system import open_range

    lo, hi = _when(start, "--from"), _when(end, "--to")
    if video is None and lo is None and hi is None and person is None:
        err.print("[red]give --video, --from or --to (or several), or --person[/red]")
        raise typer.Exit(2)
    system = open_system(config)
    try:
        removed = system.forget(namespace or system.config.service.default_namespace, video,
                                open_range(lo, hi), person)
    except (LookupError, ValueError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    console.print(f"forgot {removed} records")


@app.command()
def wearer(
    recording: Path = typer.Argument(..., help="A recording of you speaking (audio or video, 3 s or more)."),
    namespace: Optional[str] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Enroll your own voice: in every recording, remembered and to come, your turns become
    "me"'s (glasses hear their wearer but never see their face)."""
    with using_system(config, f"cannot enroll {recording}", (ValueError, OSError)) as system:
        done = system.enroll_wearer(recording, namespace or system.config.service.default_namespace)
    console.print(f"enrolled {done['seconds']} s of your voice; {done['turns_changed']} remembered turns are now yours")


@app.command("export")
def export_command(
    file: Path = typer.Argument(..., help="The archive to write (a .zip)."),
    namespace: Optional[str] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Write one namespace's memory (records, vectors, people, places) to one archive with a
    manifest and checksums, to back it up or take it to another home (`memlens import`)."""
    with using_system(config, f"cannot export to {file}", (OSError,), code=1) as system:
        done = system.export(namespace or system.config.service.default_namespace, file)
    console.print(f"exported {done.namespace!r} to {done.path}: {done.counts}")


@app.command()
def backup(
    folder: Path = typer.Argument(..., help="A new or empty folder: the copy is a home of its own."),
    config: Optional[Path] = ConfigOption,
):
    """Copy this home while it serves: memory as of one commit (SQLite's online backup) and the
    job table. Use it with MEMLENS_HOME=FOLDER; indexes are rebuilt on first use."""
    with using_system(config, f"cannot back up to {folder}", (ValueError, OSError)) as system:
        made = system.backup(folder)
    console.print(f"backed up {made['home']} to {folder} (commit {made['generation']})")


@app.command("import")
def import_command(
    file: Path = typer.Argument(..., help="An archive `memlens export` wrote."),
    namespace: Optional[str] = typer.Option(None, help="Restore as this namespace (default: the exported one)."),
    config: Optional[Path] = ConfigOption,
):
    """Restore an exported memory into this home. A damaged, cut-short or foreign archive is
    refused whole; a namespace that already holds memories is never merged into."""
    from memory.portable import ArchiveError

    if not file.is_file():
        err.print(f"[red]cannot import: no such file: {file}[/red]")
        raise typer.Exit(2)
    with using_system(config, "cannot import", (ArchiveError,)) as system:
        done = system.restore(file, namespace)
    console.print(f"imported {done.path.name} as {done.namespace!r}: {done.counts}")


name_app = typer.Typer(help="Name what memory has seen.")
app.add_typer(name_app, name="name")


def _name(noun: str, which: str, name: str, namespace: Optional[str], config: Optional[Path]) -> None:
    system = open_system(config)
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


def _known(noun: str, namespace: Optional[str], config: Optional[Path], as_json: bool) -> None:
    system = open_system(config)
    try:
        rows = system.known(namespace or system.config.service.default_namespace, noun)
    finally:
        system.close()
    if as_json:
        console.print_json(json.dumps({"known": rows}))
        return
    for row in rows:
        named = f"{row['name']} (named by {row['named_by']})" if row["name"] else "unnamed"
        console.print(f"{noun} {row['id']}: {named}, {row['sightings']} sightings")


@app.command()
def people(namespace: Optional[str] = typer.Option(None), as_json: bool = typer.Option(False, "--json"),
           config: Optional[Path] = ConfigOption):
    """The people memory has seen by face, and the names they go by."""
    _known("person", namespace, config, as_json)


@app.command()
def places(namespace: Optional[str] = typer.Option(None), as_json: bool = typer.Option(False, "--json"),
           config: Optional[Path] = ConfigOption):
    """The places memory tells apart by their views, and the names they go by."""
    _known("place", namespace, config, as_json)


@app.command()
def memories(
    kind: Optional[str] = typer.Option(None, help="utterance, text, sighting, clip, recording, visit, day, ..."),
    since: Optional[str] = typer.Option(None, help="From this wall-clock time (ISO)."),
    until: Optional[str] = typer.Option(None, help="Up to this wall-clock time (ISO)."),
    video: Optional[str] = typer.Option(None, help="Only this recording (its video id)."),
    limit: int = typer.Option(50, min=1, max=1000, help="How many on this page."),
    offset: int = typer.Option(0, min=0, help="How many to skip (the pages before)."),
    namespace: Optional[str] = typer.Option(None),
    as_json: bool = typer.Option(False, "--json"),
    config: Optional[Path] = ConfigOption,
):
    """What memory holds, in time order, a page at a time (the same as GET /memories)."""
    from service.views import memory_view

    system = open_system(config)
    try:
        rows = [memory_view(r) for r in system.memories(namespace or system.config.service.default_namespace, kind,
                                                        _when(since, "--since"), _when(until, "--until"), video,
                                                        limit, offset)]
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    finally:
        system.close()
    if as_json:
        console.print_json(json.dumps({"records": rows}))
        return
    for row in rows:
        console.print(f"[dim]{row['wall_start'][:19]} {row['kind']:<9} {(row['video_id'] or '')[:8]}[/dim] {escape(row['text'])}",
                      markup=True, highlight=False, soft_wrap=True)


@app.command()
def serve(
    host: Optional[str] = typer.Option(None), port: Optional[int] = typer.Option(None),
    config: Optional[Path] = ConfigOption,
):
    """Run the REST API (OpenAPI docs at /docs)."""
    import uvicorn

    from service.api import create_app

    system = open_system(config)
    cfg = system.config.service
    try:
        cfg.refuse_open_exposure(host or cfg.host)
        api = create_app(system)  # a setting it cannot use (a rate limit it cannot read) fails here
    except ValueError as exc:
        err.print(f"[red]{exc}[/red]")
        system.close()
        raise typer.Exit(2) from exc
    if not cfg.api_keys:
        err.print(f"[yellow]no API keys configured: serving one local namespace ({cfg.default_namespace!r}) "
                  f"without authentication on {host or cfg.host} only; `memlens key NAME` makes a key[/yellow]")
    uvicorn.run(api, host=host or cfg.host, port=port or cfg.port)


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

    ok = run_doctor(open_system(config), console)
    raise typer.Exit(0 if ok else 1)


def bars_callback(bars):
    """A runner/generator progress callback drawing one rich bar per stage."""
    tasks: dict[str, int] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bars.add_task(stage, total=total)
        bars.update(tasks[stage], completed=done, total=total)

    return progress


def generated_suite_file(name: str, size: str, seed: int, data: Optional[Path], system: MemlensSystem) -> Path:
    from eval.generated import generated_suite
    from service.console import progress_bars

    suite = generated_suite(name)
    root = data or system.config.home / "bench"
    with progress_bars(err) as bars:
        return suite.build(size, root, system.memory.embedder.embed, seed, bars_callback(bars))


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
    system = open_system(config)
    try:
        path = generated_suite_file(suite, size, seed, data, system)
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
    from eval.calibrate import fit_sufficiency

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
