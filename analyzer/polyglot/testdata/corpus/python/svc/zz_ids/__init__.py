"""A package whose names come from its module whole (from .x import *)."""
from .made import *
