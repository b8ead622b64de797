"""The coach's answers as Discord messages: a review's embed and chart, a hint's lines, a
puzzle's board with its buttons."""
