"""A Django project whose directory is itself a package (rootpkg/__init__.py
beside manage.py): it runs from here, so its modules import each other
from this directory (from settle import …), not as rootpkg.settle."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
