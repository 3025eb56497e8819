"""The calculation engine: pure Python, no Django, no database, no network.

Every number the app, the PDFs and the command line show comes from here. Money is ``Decimal``
rounded explicitly (see ``money``); actuarial factors may be float64 and become money only through
``money.to_money``. Results carry a ``trace.Trace`` of the steps that produced them.
"""

ENGINE_VERSION = "0.1.0"
