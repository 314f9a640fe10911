"""The README's main job: render the synthetic morning, ingest it, ask its questions."""
from __future__ import annotations

import os
import time
from datetime import datetime, timedelta
from pathlib import Path

import soundfile
from rich.console import Console

from eval.scoring import is_correct
from eval.synthetic import morning_at_home, render
from eval.synthetic.render import synthesize
from service.config import load_config
from service.console import print_answer, progress_bars
from service.system import MemlensSystem

# what the wearer reads aloud to enroll their voice (memlens wearer FILE)
ENROLL_SENTENCE = ("This is my voice. I am recording a few sentences so that my glasses can tell me apart "
                   "from the people I talk to during the day.")


def run_demo(out: Path, seed: int, console: Console) -> int:
    out = Path(out)
    script = morning_at_home(seed)
    console.rule(f"[bold]memlens demo: {script.title}")
    began = time.perf_counter()
    rendered = render(script, out / "video")
    console.print(f"rendered {rendered.video_path} ({script.duration:.0f} s) in {time.perf_counter() - began:.1f} s")

    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(out / "home")}))
    try:
        wearer = next((p for p in script.people if p.name == "Me"), None)
        if wearer is not None:  # as a user would: a few seconds of their own voice, once
            sample = out / "my-voice.wav"
            soundfile.write(sample, synthesize(ENROLL_SENTENCE, wearer.voice, script.speech_wpm,
                                               script.speech_word_gap), 16000)
            enrolled = system.enroll_wearer(sample, "demo")
            console.print(f"enrolled the wearer's voice from {enrolled['seconds']} s ({sample})")
        with progress_bars(console) as progress:
            report = system.ingest(rendered.video_path, "demo", progress=progress)
        console.print(f"ingested in {report.seconds:.1f} s for {report.duration:.0f} s of video "
                      f"({report.speed}); records: {report.records}")
        for channel, status in report.channels.items():
            console.print(f"  [dim]{channel}: {status}[/dim]")
        asked_at = datetime.fromisoformat(script.start_datetime).replace(tzinfo=None) + timedelta(
            seconds=script.duration + 60)
        right, timings = 0, []
        for question in script.questions:
            t0 = time.perf_counter()
            answer = system.ask(question.text, "demo", at=asked_at, options=list(question.options or []) or None)
            timings.append(time.perf_counter() - t0)
            ok = is_correct(question, answer.answer, answer.abstained, answer.chosen_option)
            right += ok
            print_answer(console, answer, expected=question.answer)
            console.print("[green]✓ correct[/green]" if ok else "[red]✗ wrong[/red]")
        console.rule(f"{right}/{len(script.questions)} correct · ask {1000 * sum(timings) / len(timings):.0f} ms "
                     f"per question on average")
        return 0
    finally:
        system.close()
