"""The demo / local development settings: embedded defaults unless the environment says otherwise.

DEBUG is off unless asked for (DJANGO_DEBUG=1), so the demo shows the project's own 404 and 500 pages,
never Django's debug page with its list of URL patterns. WhiteNoise serves static files straight from
the source folders, so no collectstatic is needed for the demo.
"""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = env.bool("DJANGO_DEBUG", default=False)
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
