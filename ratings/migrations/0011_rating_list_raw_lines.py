"""Each rating-list entry keeps the list's line as read (docs/ratings.md, "Rating lists").
Entries imported before have none until their list is imported again."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ratings", "0010_rating_list_tokens")]

    operations = [
        migrations.AddField(
            model_name="ratinglistentry",
            name="raw_line",
            field=models.TextField(blank=True),
        ),
    ]
