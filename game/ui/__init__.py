"""The pygame client: window, event loop, scene stack and scenes."""
