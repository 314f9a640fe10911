"""`python -m eval.synthetic OUT_DIR [--seed N]`: render the morning demo video."""

from __future__ import annotations

import argparse
import time

from .morning import morning_at_home
from .render import render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.synthetic",
                                     description="Render the 'morning at home' demo video.")
    parser.add_argument("out_dir", help="folder for morning.mp4 and morning.json")
    parser.add_argument("--seed", type=int, default=0, help="camera jitter and noise seed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rendered = render(morning_at_home(args.seed), args.out_dir, stem="morning")
    print(f"video:  {rendered.video_path}")
    print(f"script: {rendered.script_path}")
    print(f"rendered {rendered.script.duration:.0f} s of video in "
          f"{time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
