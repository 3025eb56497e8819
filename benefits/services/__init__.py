"""Every write of the benefits app, in one place.

Each service checks who may act, makes the change, records one audit event (``benefits.audit``) in
the same transaction, and enqueues any Celery task with ``transaction.on_commit``. Views call these;
tasks import the module they need inside the task function. The modules: ``participants`` (audited
staff views), ``plan_settings`` (plan readings), ``modeler`` (modeler runs, quotes, printed
statements), ``documents`` (PDF documents requested, rendered, served).
"""

from benefits.services.documents import (  # noqa: F401  (the app's write API)
    DocumentRenderError,
    document_bytes,
    document_mark_failed,
    document_open,
    document_render,
    document_request,
)
from benefits.services.modeler import (  # noqa: F401
    modeler_run_create,
    modeler_run_execute,
    modeler_run_fail,
    quote_payload,
    quote_print,
    quote_save,
    statement_print,
)
from benefits.services.participants import participant_view_as_staff, today  # noqa: F401
from benefits.services.plan_settings import (  # noqa: F401
    PlanReadingsIncomplete,
    parse_reading_input,
    plan_confirm_settings,
    plan_reset_reading,
    plan_update_reading,
)
