/**
 * The stack of the Lambda end-to-end test, built from the constructs real CDK apps use: a bucket
 * with `autoDeleteObjects` (the CDK's own Node.js custom resource provider), an S3 Tables table
 * bucket read back by an `AwsCustomResource` (s3tables GetTableBucket, its response fields as
 * outputs), a `cr.Provider` whose onEvent is an inline Node.js 20 function returning `Data` (for
 * one of its two resources with NoEcho, copied into an SSM parameter), and
 * a function from an asset directory (fn-src, written by app.ts) whose code the test hotswaps, and
 * a `BucketDeployment` (the CDK's Python handler running the AWS CLI from its layer) copying the
 * asset directory site-src and a generated file into a bucket of its own.
 */
import { CfnOutput, CustomResource, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnTableBucket } from 'aws-cdk-lib/aws-s3tables';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId, Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';

export interface FunctionsStackProps extends StackProps {
  autoDelete: boolean;
}

const ON_EVENT = `
exports.handler = async (event) => {
  if (event.RequestType === 'Delete') return {};
  const name = event.ResourceProperties.Name;
  const noEcho = event.ResourceProperties.Secret === 'true';
  return { PhysicalResourceId: 'greeting-' + name, NoEcho: noEcho, Data: { Greeting: 'hello ' + name, Count: event.ResourceProperties.Count } };
};`;

export class FunctionsStack extends Stack {
  constructor(scope: Construct, id: string, props: FunctionsStackProps) {
    super(scope, id, props);
    if (props.autoDelete) {
      const bucket = new Bucket(this, 'Uploads', { autoDeleteObjects: true, removalPolicy: RemovalPolicy.DESTROY });
      new CfnOutput(this, 'UploadsBucket', { value: bucket.bucketName });
    }

    const tableBucket = new CfnTableBucket(this, 'TableBucket', { tableBucketName: `${id.toLowerCase()}-tables` });
    const lookup = new AwsCustomResource(this, 'TableBucketLookup', {
      onUpdate: {
        service: 'S3Tables',
        action: 'getTableBucket',
        parameters: { tableBucketARN: tableBucket.attrTableBucketArn },
        physicalResourceId: PhysicalResourceId.fromResponse('tableBucketId'),
        outputPaths: ['tableBucketId', 'name'],
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: AwsCustomResourcePolicy.ANY_RESOURCE }),
    });
    new CfnOutput(this, 'LookedUpId', { value: lookup.getResponseField('tableBucketId') });
    new CfnOutput(this, 'LookedUpName', { value: lookup.getResponseField('name') });

    const onEvent = new LambdaFunction(this, 'GreeterOnEvent', {
      runtime: Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: Code.fromInline(ON_EVENT),
    });
    const provider = new Provider(this, 'Greeter', { onEventHandler: onEvent });
    const greeting = new CustomResource(this, 'Greeting', { serviceToken: provider.serviceToken, properties: { Name: 'overcast', Count: 3 } });
    new CfnOutput(this, 'GreetingText', { value: greeting.getAttString('Greeting') });
    new CfnOutput(this, 'GreetingId', { value: greeting.ref });
    // Through the same provider with NoEcho: the output is masked, the parameter gets the value.
    const secret = new CustomResource(this, 'SecretGreeting', { serviceToken: provider.serviceToken, properties: { Name: 'hidden', Secret: true } });
    new CfnOutput(this, 'SecretText', { value: secret.getAttString('Greeting') });
    new StringParameter(this, 'SecretCopy', { parameterName: `/${id}/secret-copy`, stringValue: secret.getAttString('Greeting') });

    const fn = new LambdaFunction(this, 'Lister', {
      runtime: Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: Code.fromAsset('fn-src'),
      timeout: Duration.seconds(10),
      environment: { STAGE: 'test' },
    });
    new CfnOutput(this, 'ListerName', { value: fn.functionName });

    const site = new Bucket(this, 'Site', { autoDeleteObjects: true, removalPolicy: RemovalPolicy.DESTROY });
    new BucketDeployment(this, 'DeploySite', {
      destinationBucket: site,
      destinationKeyPrefix: 'web',
      sources: [Source.asset('site-src'), Source.data('robots.txt', 'User-agent: *')],
    });
    new CfnOutput(this, 'SiteBucket', { value: site.bucketName });
  }
}
