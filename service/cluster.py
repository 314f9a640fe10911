"""Perception on a Ray cluster: many videos perceived at once, on as many machines as the
cluster has, and remembered here.

Perception is the expensive, independent part of an ingest, so it is what travels: each
Ray actor loads the perception models once and perceives the videos handed to it. Memory
keeps one writer (SQLite), so the observations come back to the caller, which remembers
them in the order the files were given; the memory is the same as a one-by-one ingest.
A file's bytes travel through Ray's object store, so workers need no shared disk; each
node needs memlens set up (`make setup`) for its models.

`address` is "local" (start a cluster on this machine, stopped when done) or anything
`ray.init` takes: "auto" for the cluster this machine belongs to, "ray://head:10001" for a
remote one.
"""
from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from perception.config import PerceptionConfig
from perception.progress import as_progress
from perception.types import VideoObservation
from service.system import IngestReport, MemlensSystem

LOCAL = "local"


@dataclass(frozen=True)
class VideoJob:
    """One file to perceive: its name and bytes, the wearer's clock at its start if known,
    and its modification time (the last resort for that clock, as for a local ingest)."""

    name: str
    data: bytes
    start: datetime | None
    mtime: float

    @classmethod
    def of(cls, path: Path, start: datetime | None) -> VideoJob:
        return cls(path.name, path.read_bytes(), start, path.stat().st_mtime)


class PerceptionWorker:
    """A Ray actor's state: one Perceiver, its models loaded on the first video; the skills
    turned on travel by name and add their stages here."""

    def __init__(self, config: PerceptionConfig, skills: Sequence[str] = ()):
        from perception.pipeline import Perceiver
        from skills.registry import load_skills

        stages = tuple(stage for skill in load_skills(skills) for stage in skill.stages())
        self.perceiver = Perceiver(dataclasses.replace(config, cache_dir=None), stages=stages)

    def perceive(self, job: VideoJob) -> VideoObservation:
        with tempfile.TemporaryDirectory(prefix="memlens-ray-") as folder:
            path = Path(folder) / job.name
            path.write_bytes(job.data)
            os.utime(path, (job.mtime, job.mtime))
            return self.perceiver.perceive(path, wall_start=job.start)


@contextmanager
def ray_cluster(address: str = LOCAL, cpus: int | None = None) -> Iterator[None]:
    """Connected to a Ray cluster for the block; a local one is started and stopped here."""
    import ray

    if ray.is_initialized():
        yield
        return
    local = address == LOCAL
    ray.init(address=None if local else address, num_cpus=cpus if local else None,
             include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def perceive_on_ray(config: PerceptionConfig, paths: Sequence[Path], starts: Sequence[datetime | None],
                    workers: int, skills: Sequence[str] = ()) -> Iterator[VideoObservation]:
    """Each file's observation, in the order given, perceived by `workers` actors of the
    connected cluster (one CPU each); the path each carries is the caller's."""
    import ray
    from ray.util import ActorPool

    actor = ray.remote(num_cpus=1)(PerceptionWorker)
    pool = ActorPool([actor.remote(config, tuple(skills)) for _ in range(max(1, min(workers, len(paths))))])
    # a file is read when an actor takes it, not all at once
    perceived = pool.map(lambda worker, job: worker.perceive.remote(VideoJob.of(*job)),
                         [(Path(p), s) for p, s in zip(paths, starts)])
    for path, video in zip(paths, perceived):
        yield dataclasses.replace(video, path=str(path))


def ingest_on_ray(system: MemlensSystem, paths: Sequence[Path], namespaces: Sequence[str | None],
                  starts: Sequence[datetime | None], address: str = LOCAL, workers: int = 2,
                  progress=None) -> Iterator[IngestReport]:
    """Perceive `paths` on a Ray cluster and remember each here (in its namespace) as it
    comes back, in the order given; each one's report as it is remembered."""
    progress = as_progress(progress)
    with ray_cluster(address, cpus=workers):
        progress.start("perceive", len(paths))
        for video, namespace in zip(perceive_on_ray(system.config.perception, paths, starts, workers,
                                                           system.config.skills), namespaces):
            # its time: perception on a worker, then the memory write here
            began = time.perf_counter() - sum(video.stage_seconds.values())
            yield system.remember(video, namespace, began)
            progress.advance("perceive")
