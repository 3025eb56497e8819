"""The demo / local development settings: DEBUG on, embedded defaults unless the environment says otherwise."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
