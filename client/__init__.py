"""The browser client served at ``/``: a page, ES modules and CSS, talking
to the service only through its public REST API and WebSocket streams."""
