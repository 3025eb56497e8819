from allauth.account.adapter import DefaultAccountAdapter
from django.urls import reverse


class AccountAdapter(DefaultAccountAdapter):
    """Everyone lands on their role's home page after login; account e-mail goes out as a job."""

    def get_login_redirect_url(self, request):
        return reverse("home")

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Verification, password reset and security notices: rendered here, sent by a worker and retried
        while the mail relay is down, so a relay fault never turns the request into an error page."""
        from allauth.core import context as allauth_context
        from django.contrib.sites.shortcuts import get_current_site

        from benefits.mail import mail_enqueue

        request = allauth_context.request
        message = self.render_mail(
            template_prefix,
            email,
            {"request": request, "email": email, "current_site": get_current_site(request), **context},
        )
        html = next(
            (content for content, kind in getattr(message, "alternatives", []) if kind == "text/html"), ""
        )
        body = message.body
        if message.content_subtype == "html":
            body, html = "", message.body
        mail_enqueue(
            subject=message.subject, body=body, html=html, to=message.to, from_email=message.from_email
        )
