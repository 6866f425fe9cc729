"""The live stream of a casino table: ``ws/casino/tables/<id>/?after=<position>``.

Anyone may watch (public frames); a logged-in player also gets his private
frames (his box's cards and chips) until his account is locked, all taken
from the one message per command the table's group gets
(``casino.publish``).  Catch-up, order and gaps are every stream's
(``kernel.consumers.FeedConsumer``).  The stream only sends: ``ping`` is
answered with the last position sent.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from casino import publish
from casino.models import CasinoTable
from casino.selectors import casino_table_view
from kernel.consumers import FeedConsumer, Refusal

NO_TABLE = Refusal(4404, "not_found", _("no such casino table"))


class CasinoTableConsumer(FeedConsumer):
    """One casino table's feed."""

    model = CasinoTable
    frames = publish
    missing = NO_TABLE

    def view(self) -> tuple[int, dict[str, Any]]:
        row = CasinoTable.objects.get(pk=self.feed_id)
        return row.position, casino_table_view(row, self.user)
