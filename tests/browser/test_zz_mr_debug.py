from conftest import open_and_run, screenshot
def test_debug(lab_server, page):
    open_and_run(page, lab_server, "notebooks/money_run.ipynb", timeout_s=180)
    view = page.locator(".moneynb-view >> nth=0")
    view.wait_for(state="visible")
    view.scroll_into_view_if_needed()
    page.wait_for_timeout(3000)
    print(page.evaluate("""() => { const t=[...document.querySelectorAll('.moneynb-view .js-plotly-plot .scatterlayer .trace')];
      return [document.querySelectorAll('.moneynb-view .js-plotly-plot').length, t.map(x => x.getAttribute('class') + ':' + x.querySelectorAll('path.point').length)]; }"""))
    screenshot(page, "mr_debug", element=view)
