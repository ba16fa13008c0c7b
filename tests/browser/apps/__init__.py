"""Small Streamlit apps that browser tests run to check one behaviour of the app's shared parts."""
