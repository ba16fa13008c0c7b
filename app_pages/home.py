"""The landing page: what MergeScope shows and how to start."""

from mergescope_ui import home_page

home_page.render()
