"""Rich rendering for the CLI: progress bars for long work, answers with their evidence."""
from __future__ import annotations

import textwrap

from rich.console import Console
from rich.panel import Panel
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from agent.reasoning import evidence_text
from agent.state import CLOSEST, AgentAnswer


def progress_bars(console: Console) -> Progress:
    """One bar per perception stage (perception adapts a rich Progress itself)."""
    return Progress(
        TextColumn("[bold]{task.description:<10}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), console=console,
    )


def excerpt(text: str, width: int = 100) -> str:
    """At most `width` characters of `text`, cut between words (never inside one) with an
    ellipsis where something was left out."""
    return textwrap.shorten(text, width, placeholder=" …")


def print_answer(console: Console, a: AgentAnswer, expected: str | None = None) -> None:
    style = "yellow" if a.abstained else "green"
    head = f"[bold]Q:[/bold] {a.question}\n[bold {style}]A:[/bold {style}] {a.answer}"
    head += f"\n[dim]{'abstained' if a.abstained else 'answered'} · confidence {a.confidence:.2f} · " \
            f"evidence sufficiency {a.sufficiency:.2f} · {a.question_type}[/dim]"
    if expected is not None:
        head += f"\n[dim]expected: {expected or '(abstain)'}[/dim]"
    if a.option_scores:
        head += "\n" + "  ".join(f"[{i}] {s:.2f}" for i, s in enumerate(a.option_scores))
    table = Table(show_header=True, header_style="dim", box=None, pad_edge=False,
                  title=CLOSEST if a.abstained else None, title_style="dim")
    for col in ("when", "source", "video@sec", "evidence"):
        table.add_column(col)
    for e in a.evidence[:5]:
        r = e.record
        table.add_row(
            f"{r.wall_start:%H:%M:%S}-{r.wall_end:%H:%M:%S}", e.source,
            f"{(r.video_id or '')[:8]}@{r.start:.1f}-{r.end:.1f}", excerpt(evidence_text(r)),
        )
    console.print(Panel.fit(head, border_style=style))
    if a.evidence:
        console.print(table)
