"""Block Rummy: Basic Rummy with ``restock=block`` by default (:mod:`sim.variants.basic_rummy`
declares it; this module only gives the registry its ``VARIANT``)."""

from .basic_rummy import BLOCK_VARIANT as VARIANT

__all__ = ["VARIANT"]
