-- CreateEnum
CREATE TYPE "BatchStatus" AS ENUM ('RECEIVED', 'CREATED', 'IN_PROGRESS', 'SUCCESS', 'FAILED');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('Complete', 'Active', 'Cancelled', 'Suspended');

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "signingKey" BYTEA,
ADD COLUMN     "signingKeyId" TEXT,
ADD COLUMN     "signingKeyKey" BYTEA;

-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "status" "BatchStatus" NOT NULL,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "success" INTEGER NOT NULL DEFAULT 0,
    "failure" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB,
    "webhook" JSONB,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateCompleted" TIMESTAMPTZ(3),

    CONSTRAINT "Batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BatchRow" (
    "id" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "paymentMethodId" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reference" TEXT,
    "status" "BatchStatus" NOT NULL,
    "chargeId" TEXT NOT NULL,
    "failureReason" TEXT,
    "gatewayErrorCode" TEXT,
    "gatewayErrorResponse" TEXT,
    "isRetryable" BOOLEAN,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "BatchRow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "authorizationKeyId" TEXT,
    "authorizationKey" BYTEA,
    "authorization" BYTEA,
    "types" TEXT[],
    "createdDate" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateRemoved" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "subscriptionId" TEXT,
    "url" TEXT NOT NULL,
    "authorizationKeyId" TEXT,
    "authorizationKey" BYTEA,
    "authorization" BYTEA,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "paymentMethodId" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "interval" TEXT NOT NULL,
    "frequency" INTEGER NOT NULL,
    "startDate" TIMESTAMPTZ(3) NOT NULL,
    "endAfterCount" INTEGER,
    "endAfterAmount" BIGINT,
    "endAfterDate" TIMESTAMPTZ(3),
    "retryMaximum" INTEGER,
    "retryInterval" TEXT,
    "retryFrequency" INTEGER,
    "webhook" JSONB,
    "metadata" JSONB,
    "status" "SubscriptionStatus" NOT NULL DEFAULT 'Active',
    "nextBillingAt" TIMESTAMPTZ(3),
    "paymentCount" INTEGER NOT NULL DEFAULT 0,
    "paidAmount" BIGINT NOT NULL DEFAULT 0,
    "failedTries" INTEGER NOT NULL DEFAULT 0,
    "createdDate" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Batch_accountId_dateAdded_idx" ON "Batch"("accountId", "dateAdded" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "BatchRow_chargeId_key" ON "BatchRow"("chargeId");

-- CreateIndex
CREATE INDEX "BatchRow_batchId_status_idx" ON "BatchRow"("batchId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "BatchRow_batchId_line_key" ON "BatchRow"("batchId", "line");

-- CreateIndex
CREATE INDEX "WebhookSubscription_accountId_createdDate_idx" ON "WebhookSubscription"("accountId", "createdDate" DESC);

-- CreateIndex
CREATE INDEX "WebhookEvent_accountId_createdAt_idx" ON "WebhookEvent"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_resourceId_idx" ON "WebhookEvent"("resourceId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_at_idx" ON "WebhookAttempt"("deliveryId", "at");

-- CreateIndex
CREATE INDEX "Subscription_accountId_createdDate_idx" ON "Subscription"("accountId", "createdDate" DESC);

-- CreateIndex
CREATE INDEX "Subscription_status_nextBillingAt_idx" ON "Subscription"("status", "nextBillingAt");

-- AddForeignKey
ALTER TABLE "Batch" ADD CONSTRAINT "Batch_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BatchRow" ADD CONSTRAINT "BatchRow_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEvent" ADD CONSTRAINT "WebhookEvent_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
