"""The memory browser `memlens serve` shows at `/`: plain HTML and JavaScript (service/static,
no build step, nothing from a CDN) over the same REST API and API keys, and the one route it
adds: `GET /frames/{video_id}`, a keyframe of a remembered recording as a JPEG."""
from __future__ import annotations

from pathlib import Path

from fastapi import Depends, FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from memory.records import RECORDING
from perception.stills import still_jpeg
from service.schemas import problems
from service.system import MemlensSystem

STATIC = Path(__file__).with_name("static")


def install_browser(app: FastAPI, system: MemlensSystem, namespace_of, authed: dict) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/frames/{video_id}", responses={**authed, **problems(404)}, response_class=Response,
             summary="A frame of a remembered recording (JPEG), `t` seconds in")
    def frame(video_id: str, t: float = Query(0.0, ge=0.0, le=1e7), width: int = Query(320, ge=32, le=1280),
              namespace: str = Depends(namespace_of)) -> Response:
        held = system.memories(namespace, RECORDING, video_id=video_id, limit=1)
        path = held[0].attrs.get("path") if held else None
        jpeg = still_jpeg(path, t, width) if path else None
        if jpeg is None:  # another namespace's recording is as good as absent
            raise HTTPException(404, "no picture of that moment")
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})
