-- Gateway processes keep each account's providers and fees in memory
-- (packages/api/src/services/providers/provider-cache.ts) and LISTEN on this channel: every change
-- of a provider or of its fees, by any process or by hand, tells them to read them again.
CREATE FUNCTION "notify_provider_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_provider_changes', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "Provider_change_notice" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Provider"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_provider_change"();

CREATE TRIGGER "ProviderFee_change_notice" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ProviderFee"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_provider_change"();
