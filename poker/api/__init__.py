"""The cash-table REST API: serializers, views and URLs."""
