"""HTML for Jupyter: an answer with its evidence, remembered moments as a table with keyframe
thumbnails, and a timeline of when each happened. Self-contained (inline SVG and data-URI
JPEGs, no scripts, no CDN), so a notebook saved with its outputs shows them offline. It takes
memlens.views' Answer and Moment by their fields (views imports this module, not the reverse)."""
from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

THUMB_WIDTH = 160  # pixels
SHOWN = 12  # moments drawn in a table; the rest are counted
MUTED = ' style="color:#777"'  # a row of evidence cited beside the answer, not what it rests on
VISUAL = {"clip", "sighting", "text", "recording", "visit", "stay"}  # kinds whose moment has a picture


@lru_cache(maxsize=256)
def thumbnail(path: str, seconds: float) -> str | None:
    """A small JPEG of the frame at `seconds` into the recording, as a data URI; None when the
    file is gone, has no pictures or cannot be read (a thumbnail never fails a display)."""
    from perception.stills import still_jpeg

    jpeg = still_jpeg(path, seconds, THUMB_WIDTH)
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode() if jpeg else None


def _picture(m: Any) -> str:
    if m.path is None or m.kind not in VISUAL:
        return ""
    uri = thumbnail(m.path, (m.start + m.end) / 2 if m.kind != "recording" else m.start)
    return f'<img src="{uri}" width="{THUMB_WIDTH // 2}" alt="frame at {m.start:.0f} s"/>' if uri else ""


def timeline_svg(moments: Sequence[Any], width: int = 640) -> str:
    """When each moment happened, as ticks on one line from the first to the last."""
    if not moments:
        return ""
    first = min(m.when for m in moments)
    last = max(m.until for m in moments)
    span = max((last - first).total_seconds(), 1.0)

    def x(t) -> float:
        return 10 + (width - 20) * (t - first).total_seconds() / span
    ticks = "".join(
        f'<rect x="{x(m.when):.1f}" y="8" width="{max(2.0, x(m.until) - x(m.when)):.1f}" height="14" '
        f'fill="#3b7dd8" opacity="0.7"><title>{html.escape(str(m))}</title></rect>' for m in moments)
    return (f'<svg width="{width}" height="44" role="img" aria-label="timeline">'
            f'<line x1="10" y1="15" x2="{width - 10}" y2="15" stroke="#999"/>{ticks}'
            f'<text x="10" y="38" font-size="11">{first:%a %d %b %H:%M}</text>'
            f'<text x="{width - 10}" y="38" font-size="11" text-anchor="end">{last:%a %d %b %H:%M}</text></svg>')


def moments_html(moments: Sequence[Any]) -> str:
    if not moments:
        return "<p><em>nothing remembered</em></p>"
    rows = "".join(
        f"<tr{MUTED if getattr(m, 'related', False) else ''}><td>{m.when:%a %d %b %H:%M:%S}</td>"
        f"<td>{'also: ' if getattr(m, 'related', False) else ''}{html.escape(m.source or m.kind)}</td>"
        f"<td>{html.escape(m.speaker or '')}</td><td>{html.escape(m.text)}</td><td>{_picture(m)}</td></tr>"
        for m in moments[:SHOWN])
    more = f"<p>... and {len(moments) - SHOWN} more</p>" if len(moments) > SHOWN else ""
    return (f'{timeline_svg(moments)}<table class="memlens-moments"><thead><tr><th>when</th><th>channel</th>'
            f"<th>who</th><th>what</th><th></th></tr></thead><tbody>{rows}</tbody></table>{more}")


def answer_html(answer: Any) -> str:
    said = html.escape(answer.answer)
    head = (f'<p style="color:#777"><strong>No answer:</strong> {said}</p>' if answer.abstained else
            f'<p style="font-size:1.2em"><strong>{said}</strong></p>')
    confidence = f"<p>confidence {answer.confidence:.2f}" + (
        f" · asked at {answer.asked_at:%a %d %b %H:%M}" if answer.asked_at else "") + "</p>"
    return (f'<div class="memlens-answer"><p><em>{html.escape(answer.question)}</em></p>{head}{confidence}'
            f"{_closest(answer)}{moments_html(answer.evidence) if answer.evidence else ''}</div>")


def _closest(answer: Any) -> str:
    """An abstention's evidence is what came closest, not what an answer rests on."""
    from agent.state import CLOSEST

    return f'<p style="color:#777">{CLOSEST.capitalize()}:</p>' if answer.abstained and answer.evidence else ""
