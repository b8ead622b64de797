"""The browser client as the server hands it out: the built files of ``activity/dist`` at
``/`` and ``/assets/``, with the application's client id filled in, and the catalogue texts
the client shows, in the user's language, in the welcome frame."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.activity import server as server_module
from bot.activity.client_texts import client_text_keys, client_texts
from bot.text import LANGUAGES, t
from tests.bot.activity.helpers import activity_bot, open_browser
from tests.bot.helpers import world


def built_client(root: Path) -> Path:
    """A stand-in for ``npm run build``'s output: the page with its empty client-id tag."""
    dist = root / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text(
        "<!doctype html><head>" + server_module.CLIENT_ID_TAG + "</head>"
        '<script type="module" src="./assets/index-abc123.js"></script>',
        encoding="utf-8",
    )
    (dist / "assets" / "index-abc123.js").write_text("console.log('table');", encoding="utf-8")
    (root / "secret.txt").write_text("outside the client", encoding="utf-8")
    return dist


async def test_a_built_client_is_served_with_the_client_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "CLIENT_DIR", built_client(tmp_path))
    async with world(tmp_path) as w, activity_bot(w) as site:
        async with site.http.get(site.url + "/") as page:
            assert page.status == 200
            assert page.content_type == "text/html"
            html = await page.text()
        assert f'<meta name="discord-client-id" content="{w.fake.application_id}" />' in html
        assert server_module.CLIENT_ID_TAG not in html
        async with site.http.get(site.url + "/assets/index-abc123.js") as script:
            assert script.status == 200
            assert await script.text() == "console.log('table');"
        for path in (
            "/assets/missing.js",
            "/assets/../../secret.txt",
            "/assets/%2e%2e/%2e%2e/secret.txt",
        ):
            async with site.http.get(site.url + path) as response:
                assert response.status in (403, 404), path
                assert "outside the client" not in await response.text()


def test_client_texts_are_single_form_catalogue_templates_in_every_language() -> None:
    for lang in LANGUAGES:
        texts = client_texts(lang)
        assert list(texts) == list(client_text_keys())
        assert all(texts.values()), lang
    # Placeholders stay for the client to fill.
    assert "{card}" in client_texts("ru")["act.transfer"]
    assert client_texts("ru")["act.take"] == t("act.take", "ru") != t("act.take", "en")


async def test_the_welcome_carries_the_client_texts_in_the_users_language(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        olga = w.fake.add_user("Olga", "ru")
        instance = w.fake.activity.open_instance(w.channel, [w.alice, olga])
        russian = await open_browser(w, site, olga, instance)
        english = await open_browser(w, site, w.alice, instance)
        assert russian.frames[0]["texts"] == client_texts("ru")
        assert russian.frames[0]["texts"]["act.take"] == "Беру"
        assert english.frames[0]["texts"] == client_texts("en-US")
