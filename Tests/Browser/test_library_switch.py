"""`flowrun diagram --format html` of a scenario several libraries draw differently: the page
shows the file's own library and its buttons switch to another library's drawing (libraries.md).
"""

from __future__ import annotations

from selenium.webdriver.common.by import By


def visible_libraries(driver) -> list[str]:
    return [d.get_attribute("data-library") for d in driver.find_elements(By.CSS_SELECTOR, "div.library")
            if d.is_displayed()]


def test_the_reader_switches_library(run_flowrun, artifacts, visit, driver):
    page = artifacts / "libraries-retry-counts.html"
    run_flowrun("diagram", "scenarios/libraries/retry-counts.yaml", "--format", "html", "-o", str(page))
    loaded = visit(page.as_uri())
    assert loaded.errors() == []
    buttons = {b.text: b for b in driver.find_elements(By.CSS_SELECTOR, "nav.libraries button")}
    # The file says `library: rxswift`; RAC2, Combine, async and RxJS retry once more.
    assert list(buttons) == ["rxswift", "rac2", "combine", "async", "rxjs"]
    assert visible_libraries(driver) == ["rxswift"]
    assert buttons["rxswift"].get_attribute("aria-pressed") == "true"
    buttons["rac2"].click()
    assert visible_libraries(driver) == ["rac2"]
    assert buttons["rac2"].get_attribute("aria-pressed") == "true"
    assert buttons["rxswift"].get_attribute("aria-pressed") == "false"
    section = driver.find_element(By.CSS_SELECTOR, "div.library[data-library='rac2'] section.scenario")
    assert section.is_displayed()
    # Its slider still walks the run.
    section.find_element(By.CSS_SELECTOR, "button[data-step='last']").click()
    assert section.find_element(By.CSS_SELECTOR, ".now").text.startswith("frame ")
    assert loaded.errors() == []


def test_a_scenario_every_library_draws_alike_has_no_switch(run_flowrun, artifacts, visit, driver):
    page = artifacts / "login-enable-button-no-switch.html"
    run_flowrun("diagram", "scenarios/login/enable-button.yaml", "--format", "html", "-o", str(page))
    visit(page.as_uri())
    assert driver.find_elements(By.CSS_SELECTOR, "nav.libraries") == []
