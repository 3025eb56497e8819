"""Electronic delivery (Treas. Reg. §1.401(a)-21): the participant's consent, and how each notice or
statement reaches them — an email saying it is ready, or a paper copy for the administrator to mail."""
