from django.apps import AppConfig


class KernelConfig(AppConfig):
    """The kernel below every app (it imports none of them)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "kernel"
    verbose_name = "Kernel"

    def ready(self) -> None:
        from celery.signals import worker_ready, worker_shutdown

        from kernel import waker

        worker_ready.connect(waker.start_in_worker, dispatch_uid="kernel-clock-waker")
        worker_shutdown.connect(waker.stop_in_worker, dispatch_uid="kernel-clock-waker-stop")
