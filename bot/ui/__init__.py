"""Views → embeds, components and pictures: what a message shows, never when it is sent."""
