"""The languages goref's pages are written in: code and the language's own name, as the
switcher shows it (docs/i18n.md says how to add one).  Read by the settings
(``LANGUAGES``) and by a tournament's language setting."""

LANGUAGES = (
    ("en", "English"),
    ("fr", "Français"),
    ("ja", "日本語"),
    ("ko", "한국어"),
    ("zh-hans", "简体中文"),
)
