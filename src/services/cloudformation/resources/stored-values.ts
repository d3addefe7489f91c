/**
 * The physical id and every Fn::GetAtt attribute of a resource Overcast only stores, shaped like
 * AWS's: the primary identifier when the template gives it, else a name CloudFormation would
 * generate; ARNs filled from the type's ARN template (`${RoleNameWithPath}` and friends included);
 * `…Id` values in the service's format (EC2 `vpc-0…`, KMS key UUIDs, IAM `AROA…`); names, URLs,
 * dates and lists by the shape their attribute name implies; attributes that mirror a property
 * take its value. A few types the CDK and common stacks lean on get exact shapes (IAM roles and
 * managed policies, ECR repository URIs, SQS queue URLs, log-group ARNs, DynamoDB stream ARNs).
 * Anything else is a string.
 */
import { resourceType, type ResourceTypeInfo } from '../spec/resource-types.js';
import { uniqueId } from '../../sts/unique-id.js';
import { ec2Id, generatedName, randomToken, uuid, type NameOptions } from './physical-names.js';
import type { ResolvedProperties, ResourceContext, ResourceState } from './types.js';
import { bool, str } from './property-values.js';

const NAME_OPTIONS: Record<string, NameOptions> = {
  'AWS::SQS::Queue': { max: 80 },
  'AWS::SNS::Topic': { max: 256 },
  'AWS::ECR::Repository': { max: 256, lower: true },
  'AWS::Logs::LogGroup': { max: 512 },
  'AWS::DynamoDB::Table': { max: 255 },
  'AWS::IAM::ManagedPolicy': { max: 128 },
  'AWS::IAM::InstanceProfile': { max: 128 },
  'AWS::IAM::Group': { max: 128 },
  'AWS::StepFunctions::StateMachine': { max: 80 },
  'AWS::Kinesis::Stream': { max: 128 },
  'AWS::Glue::Database': { max: 255, lower: true },
};

/** EC2 id prefixes, by resource name and by attribute name. */
const EC2_PREFIX: Record<string, string> = {
  VPC: 'vpc', Vpc: 'vpc', Subnet: 'subnet', SecurityGroup: 'sg', Group: 'sg', InternetGateway: 'igw',
  RouteTable: 'rtb', NatGateway: 'nat', Instance: 'i', Volume: 'vol', NetworkInterface: 'eni', EIP: 'eipalloc',
  Allocation: 'eipalloc', LaunchTemplate: 'lt', VPCEndpoint: 'vpce', VpcEndpoint: 'vpce', TransitGateway: 'tgw',
  NetworkAcl: 'acl', KeyPair: 'key', PrefixList: 'pl', DHCPOptions: 'dopt', EgressOnlyInternetGateway: 'eigw',
  VPNGateway: 'vgw', CustomerGateway: 'cgw', FlowLog: 'fl', VPCPeeringConnection: 'pcx',
  SubnetRouteTableAssociation: 'rtbassoc', SecurityGroupIngress: 'sgr', SecurityGroupEgress: 'sgr', Image: 'ami',
  TransitGatewayAttachment: 'tgw-attach', PlacementGroup: 'pg', CapacityReservation: 'cr', Host: 'h',
  DefaultSecurityGroup: 'sg', DefaultNetworkAcl: 'acl',
};

interface Gen {
  rc: ResourceContext;
  info: ResourceTypeInfo | undefined;
  props: ResolvedProperties;
  name: string;
  nameKey?: string;
  attrs: Map<string, unknown>;
}

function shortName(type: string): string {
  return type.split('::')[2] ?? type;
}

function serviceOf(type: string): string {
  return (type.split('::')[1] ?? 'cloudformation').toLowerCase();
}

/** The property that names the resource, if the type has one. */
function nameProperty(type: string, info: ResourceTypeInfo | undefined): string | undefined {
  if (!info) return undefined;
  const id = info.id?.length === 1 ? info.id[0]! : undefined;
  if (id && info.p[id] && /Name$/.test(id)) return id;
  const own = `${shortName(type)}Name`;
  if (info.p[own]) return own;
  return info.p.Name ? 'Name' : undefined;
}

function given(props: ResolvedProperties, key: string | undefined): string | undefined {
  if (!key) return undefined;
  const v = props[key];
  return v === undefined || v === null || typeof v === 'object' ? undefined : str(v);
}

function pathPrefix(props: ResolvedProperties): string {
  const path = given(props, 'Path') ?? '/';
  return path.replace(/^\//, '');
}

function iso(): string {
  return new Date().toISOString();
}

function isArnAttr(a: string): boolean {
  return /(Arn|ARN)$/.test(a);
}

function ec2Prefix(type: string, attr: string): string | undefined {
  const base = attr.replace(/Id$/, '');
  if (type.startsWith('AWS::EC2::')) {
    if (EC2_PREFIX[base]) return EC2_PREFIX[base];
    return attr === 'Id' || attr === `${shortName(type)}Id` ? EC2_PREFIX[shortName(type)] : undefined;
  }
  // Other services' attributes that name EC2 resources.
  return /^(Vpc|Subnet|SecurityGroup|Image)Id$/.test(attr) ? EC2_PREFIX[base] : undefined;
}

function fillArn(g: Gen, template: string): string {
  const { ctx } = g.rc;
  return template.replace(/\$\{([^}]+)\}/g, (_, key: string) => {
    if (key === 'Partition') return ctx.partition;
    if (key === 'Region') return ctx.region;
    if (key === 'Account') return ctx.account;
    if (key.endsWith('NameWithPath')) return pathPrefix(g.props) + g.name;
    if (key === 'ParameterNameWithoutLeadingSlash') return g.name.replace(/^\//, '');
    const prop = given(g.props, key);
    if (prop !== undefined) return prop;
    if (g.info?.a.includes(key) && !isArnAttr(key)) return String(attr(g, key));
    if (/Name$/.test(key)) return g.name;
    return String(attr(g, key.endsWith('Id') ? key : 'Id'));
  });
}

function arnOf(g: Gen): string {
  const { ctx, resourceType: type } = g.rc;
  if (g.info?.arn) return fillArn(g, g.info.arn);
  return `arn:${ctx.partition}:${serviceOf(type)}:${ctx.region}:${ctx.account}:${shortName(type).toLowerCase()}/${g.name}`;
}

/** Exact shapes for types the CDK bootstrap and common stacks read. */
function special(g: Gen, a: string): unknown {
  const { ctx, resourceType: type } = g.rc;
  switch (`${type}.${a}`) {
    case 'AWS::IAM::Role.RoleId':
      return uniqueId('AROA', arnOf(g));
    case 'AWS::IAM::User.UserId':
      return uniqueId('AIDA', arnOf(g));
    case 'AWS::IAM::Group.GroupId':
      return uniqueId('AGPA', arnOf(g));
    case 'AWS::IAM::InstanceProfile.InstanceProfileId':
      return uniqueId('AIPA', arnOf(g));
    case 'AWS::IAM::ManagedPolicy.PolicyId':
      return uniqueId('ANPA', arnOf(g));
    case 'AWS::IAM::ManagedPolicy.DefaultVersionId':
      return 'v1';
    case 'AWS::IAM::ManagedPolicy.IsAttachable':
      return true;
    case 'AWS::IAM::ManagedPolicy.AttachmentCount':
    case 'AWS::IAM::ManagedPolicy.PermissionsBoundaryUsageCount':
      return 0;
    case 'AWS::ECR::Repository.RepositoryUri':
      return `${ctx.account}.dkr.ecr.${ctx.region}.amazonaws.com/${g.name}`;
    case 'AWS::KMS::Key.KeyId':
      return uuid();
    case 'AWS::SQS::Queue.QueueUrl':
      return `https://sqs.${ctx.region}.amazonaws.com/${ctx.account}/${g.name}`;
    case 'AWS::Logs::LogGroup.Arn':
      return `arn:${ctx.partition}:logs:${ctx.region}:${ctx.account}:log-group:${g.name}:*`;
    case 'AWS::DynamoDB::Table.StreamArn':
      return `${arnOf(g)}/stream/${iso().replace(/Z$/, '')}`;
    case 'AWS::ApiGateway::RestApi.RestApiId':
    case 'AWS::ApiGatewayV2::Api.ApiId':
      return randomToken(10, 'abcdefghijklmnopqrstuvwxyz0123456789');
    case 'AWS::ApiGateway::RestApi.RootResourceId':
      return randomToken(10, 'abcdefghijklmnopqrstuvwxyz0123456789');
    default:
      return undefined;
  }
}

function shaped(g: Gen, a: string): unknown {
  const { ctx, resourceType: type } = g.rc;
  const leaf = a.split('.').pop()!;
  const prop = g.props[a];
  if (prop !== undefined && prop !== null) return prop;
  if (isArnAttr(leaf)) return a === leaf ? arnOf(g) : `${arnOf(g)}/${leaf.replace(/(Arn|ARN)$/, '').toLowerCase() || 'resource'}`;
  if (/Name$/.test(leaf)) return g.name;
  if (/Ids$/.test(leaf)) return [attr(g, a.replace(/Ids$/, 'Id'))];
  if (/(Arns|Blocks|Associations|Entries|Addresses)$/.test(leaf)) return [String(attr(g, a.replace(/s$/, '')))];
  const prefix = ec2Prefix(type, leaf);
  if (prefix) return ec2Id(prefix);
  if (leaf === 'Id') return g.name;
  if (/Id$/.test(leaf)) return randomToken(12, 'abcdefghijklmnopqrstuvwxyz0123456789');
  if (/(Url|URL|Uri|URI)$/.test(leaf)) return `https://${g.name.toLowerCase()}.${serviceOf(type)}.${ctx.region}.amazonaws.com`;
  if (/(Endpoint|Address|DNSName|DnsName|DomainName|Hostname)$/.test(leaf)) {
    return `${g.name.toLowerCase()}.${serviceOf(type)}.${ctx.region}.amazonaws.com`;
  }
  if (/(Date|Time|Timestamp|At)$/.test(leaf)) return iso();
  if (/PrivateIp/.test(leaf)) return '10.0.0.10';
  if (/Ip$|IpAddress$/.test(leaf)) return '203.0.113.10';
  if (/Port$/.test(leaf)) return '443';
  if (/Count$/.test(leaf)) return 0;
  return g.name;
}

function attr(g: Gen, a: string): unknown {
  if (g.attrs.has(a)) return g.attrs.get(a);
  g.attrs.set(a, undefined); // guards against cycles through ARN templates
  const v = special(g, a) ?? shaped(g, a);
  g.attrs.set(a, v);
  return v;
}

function nameFor(rc: ResourceContext, props: ResolvedProperties, key?: string): string {
  const own = given(props, key);
  if (own !== undefined) return own;
  if (rc.resourceType === 'AWS::SQS::Queue' && bool(props.FifoQueue)) {
    return `${generatedName(rc, { max: 75 })}.fifo`;
  }
  return generatedName(rc, NAME_OPTIONS[rc.resourceType] ?? {});
}

/** Physical id and attributes for a newly stored resource. */
export function storedState(rc: ResourceContext, props: ResolvedProperties): ResourceState {
  const info = resourceType(rc.resourceType);
  const nameKey = nameProperty(rc.resourceType, info);
  const g: Gen = { rc, info, props, name: nameFor(rc, props, nameKey), nameKey, attrs: new Map() };
  const attributes: Record<string, unknown> = {};
  const names = info?.a ?? [];
  // Plain values first: ARN templates may embed them.
  for (const a of names.filter((n) => !isArnAttr(n))) attributes[a] = attr(g, a);
  for (const a of names.filter(isArnAttr)) attributes[a] = attr(g, a);
  const idKeys = info?.ref ?? info?.id ?? [];
  const parts = idKeys.map((k) => given(props, k) ?? str(attr(g, k)) ?? g.name);
  const physicalId = parts.length ? parts.join('|') : g.name;
  return { physicalId, attributes };
}

/**
 * The state after an in-place update: same physical id and generated values; attributes that
 * mirror a property follow the new value.
 */
export function updatedState(
  rc: ResourceContext,
  props: ResolvedProperties,
  previous: ResourceState,
): ResourceState {
  const info = resourceType(rc.resourceType);
  const attributes = { ...previous.attributes };
  for (const a of info?.a ?? []) if (info?.p[a] && props[a] !== undefined) attributes[a] = props[a];
  return { ...previous, attributes };
}
