"""The stored report pages under ``/report`` and the runs of ``--runs`` under ``/runs``."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
