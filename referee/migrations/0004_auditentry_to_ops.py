# The audit trail now belongs to ops (ops 0002): forget the model here, keep the table.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0002_auditentry"),
        ("referee", "0003_ruling_acceptance"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
