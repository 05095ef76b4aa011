from . import refunds
