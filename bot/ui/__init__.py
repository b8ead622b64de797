"""Views → embeds and components; the message refresher."""
