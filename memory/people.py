"""The people a namespace has seen, across videos (memory.registry): one video's faces
("F1", "F2") are matched to known people by face descriptor, within perception.faces.SAME_FACE
(dlib's metric: one person's faces lie within 0.6 of each other)."""
from __future__ import annotations

import numpy as np

from memory.database import Database
from memory.registry import Registry
from perception.faces import SAME_FACE


def people_registry(db: Database) -> Registry:
    return Registry(db, "known_people", "person", alike=lambda a, b: float(np.linalg.norm(a - b)) <= SAME_FACE,
                    closeness=lambda a, b: -float(np.linalg.norm(a - b)))
