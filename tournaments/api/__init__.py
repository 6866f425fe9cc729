"""The tournament REST API: serializers, views and URLs."""
