"""Data sources as team programs call them, plain and output form, for AWS, GCP and Azure."""

import pulumi
from pulumi.runtime import invoke, invoke_output

aws_zones = invoke("aws:index/getAvailabilityZones:getAvailabilityZones", {"state": "available"})
region = invoke("aws:index/getRegion:getRegion", {}).value
account = invoke("aws:index/getCallerIdentity:getCallerIdentity", {}).value
partition = invoke("aws:index/getPartition:getPartition", {}).value
gcp = invoke("gcp:organizations/getClientConfig:getClientConfig", {}).value
project = invoke("gcp:organizations/getProject:getProject", {}).value
gcp_zones = invoke("gcp:compute/getZones:getZones", {}).value
azure = invoke("azure:core/getClientConfig:getClientConfig", {}).value
# An invoke the offline engine has no result for, in output form: unknown, like the cluster
# it reads would be before it exists; the apply must not run.
existing = invoke_output("aws:eks/getCluster:getCluster", {"name": "shared"})
existing.apply(lambda cluster: cluster["endpoint"].lower())

pulumi.export("awsZones", aws_zones.value["names"])
pulumi.export("awsZoneIds", aws_zones.value["zoneIds"])
pulumi.export("region", region["name"])
pulumi.export("nodeRoleArn", f"arn:{partition['partition']}:iam::{account['accountId']}:role/n")
pulumi.export("gcpProject", gcp["project"])
pulumi.export("gcpProjectNumber", project["number"])
pulumi.export("gcpZones", gcp_zones["names"])
pulumi.export("azureTenant", azure["tenantId"])
pulumi.export("existingEndpoint", existing["endpoint"])
