"""Outgoing e-mail as a job: written with the change that needs it, sent by a worker, retried while the
mail relay is down, and its failure shown with the reason under Background work — never a traceback in
the request that asked for it."""

from __future__ import annotations

from django.core.mail import EmailMultiAlternatives

from benefits.tasks import send_mail


class MailNotSent(OSError):
    """The relay refused or could not be reached: a transient fault, tried again with a back-off."""

    @property
    def job_reason(self) -> str:
        return str(self)


def mail_enqueue(*, subject: str, body: str, to: list[str], html: str = "", from_email: str | None = None):
    """A job that sends one message (call inside the transaction of the change it reports)."""
    args = {"subject": subject, "body": body, "to": list(to), "html": html, "from_email": from_email}
    return send_mail.enqueue_on_commit(args=args)


def mail_send(job) -> None:
    """Send the job's message (its task's body). Once sent, the message's text is dropped from the row (a sign-in or reset link in it
    must not outlive its use); what was sent to whom stays."""
    import smtplib

    from benefits.jobs.models import Job

    args = job.args
    if args.get("sent"):
        return
    message = EmailMultiAlternatives(
        subject=args["subject"], body=args["body"], from_email=args.get("from_email"), to=args["to"]
    )
    if args.get("html"):
        message.attach_alternative(args["html"], "text/html")
    try:
        message.send(fail_silently=False)
    except (smtplib.SMTPException, OSError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise MailNotSent(
            f"The mail server did not take the message ({type(exc).__name__}: {reason})."
        ) from exc
    Job.objects.filter(pk=job.pk).update(args={"subject": args["subject"], "to": args["to"], "sent": True})
